// A document replace's change-log rows as the search engine reads them, built from the write itself and the seqs and
// ids the transaction logged, so this process's index takes its own writes without reading them back.
import type { DocumentWrite } from "../ports/documents.ts";
import { OPENING_CHARS, type ChunkChange, type CommittedChanges } from "../ports/search-feed.ts";
import { OP_ADD } from "./rows.ts";

/** One replace in a committed transaction: its workspace, what was written, and `logged`, flat (seq, chunk id, op) triples. */
export interface LoggedReplace {
  workspaceId: string;
  write: DocumentWrite;
  logged: number[];
}

type Listener = (committed: CommittedChanges) => void;

/**
 * Tells its listeners of the replaces this process committed (a store's SearchFeed.onCommitted). Held weakly: a runtime
 * dropped without closing over a store others share (the eval's variants) leaves its engine to the collector.
 */
export class CommitAnnouncer {
  private readonly listeners = new Set<WeakRef<Listener>>();

  onCommitted(listener: Listener): void {
    this.listeners.add(new WeakRef(listener));
  }

  /** Called once the replaces' transaction has committed. */
  committed(replaces: readonly LoggedReplace[]): void {
    if (replaces.length === 0 || this.listeners.size === 0) return;
    const committed = committedChanges(replaces);
    for (const ref of this.listeners) {
      const listener = ref.deref();
      if (listener) listener(committed);
      else this.listeners.delete(ref);
    }
  }
}

/**
 * The changes of committed replaces in seq order, each added chunk taken from the chunks its write held (a write's
 * adds are logged in the order of its chunks).
 */
export function committedChanges(replaces: readonly LoggedReplace[]): CommittedChanges {
  const changes: ChunkChange[] = [];
  const vectors = [];
  for (const { workspaceId, write, logged } of replaces) {
    const { doc, chunks } = write;
    let added = 0;
    for (let i = 0; i + 2 < logged.length; i += 3) {
      const [seq, chunkId, op] = [logged[i]!, logged[i + 1]!, logged[i + 2]!];
      const c = op === OP_ADD ? chunks[added++] : undefined;
      const chunk = c && {
        id: chunkId,
        sourcePath: doc.sourcePath,
        terms: c.terms,
        authoredAt: c.occurredAt ?? doc.authoredAt,
        chunkHash: c.chunkHash,
        opening: opening(c.text),
      };
      changes.push({ seq, workspaceId, chunkId, removed: op !== OP_ADD, chunk: chunk ?? null });
    }
    if (write.vectors) vectors.push(write.vectors);
  }
  return { changes: changes.sort((a, b) => a.seq - b.seq), vectors };
}

/** The first OPENING_CHARS characters, counted as the stores' substr() counts them: code points, not UTF-16 units. */
function opening(text: string): string {
  let end = 0;
  for (let n = 0; n < OPENING_CHARS && end < text.length; n++) end += (text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
  return text.slice(0, end);
}
