// The search engine: per-workspace in-memory indexes fed by any store's SearchFeed, kept current by its change log.
import type { IndexSnapshots } from "../ports/index-snapshots.ts";
import type { DocumentStore, NewVectors } from "../ports/documents.ts";
import type { ChunkChange, CommittedChanges, Page, SearchFeed } from "../ports/search-feed.ts";
import { runSearch, type SearchRequest, type SearchResult } from "./request.ts";
import { openSnapshot, pack } from "./snapshot.ts";
import { VectorIndex } from "./vector-index.ts";
import { WorkspaceIndex } from "./workspace-index.ts";

/** Rows per page when a workspace loads: small enough to die young (10,000 rows per page left RSS 40 MB higher at 100k chunks). */
const PAGE = 1_000;

/**
 * Freshness rule: before each search the feed's synchronous change marker is compared with the last one seen; only
 * when it moved (a write committed, here or in another process) or an index is not loaded yet does the search await
 * the store. Loads and catch-ups run one at a time and apply their changes synchronously, so a search never sees
 * half of a committed write.
 */
/** What the engine holds and how often it (re)loaded: /metrics reads it. */
export interface IndexStats {
  workspaces: number;
  /** Estimated bytes of every loaded index. */
  bytes: number;
  loads: number;
  loadSeconds: number;
  evictions: number;
  /** Loads that read a saved snapshot instead of every row. */
  restored: number;
}

export interface EngineOptions {
  /**
   * Estimated bytes the loaded indexes may hold (0: no limit). Past it the least recently searched workspaces are
   * dropped after a load; the next search of one loads it again from the store.
   */
  budgetBytes?: number;
  /** Where loaded indexes are saved (saveSnapshots) and read back on the next load; without it every load reads every row. */
  snapshots?: IndexSnapshots | undefined;
}

/**
 * Announced commits of at most this many changes are applied as they commit (a note, a message, a batch of them); larger
 * ones (a bulk import) are left to the next search's catch-up, which applies them once instead of slowing the import.
 */
const APPLY_AT_COMMIT = 32;

/** Bumped whenever what a snapshot holds changes: an older one is rebuilt from the rows. */
const SNAPSHOT_VERSION = 3;

/** What a snapshot says about the history it reflects: every change up to `seq`, the last of which was `last`. */
interface SnapshotMark {
  version: number;
  workspaceId: string;
  seq: number;
  last: { chunkId: number; removed: boolean } | null;
}

export class SearchEngine {
  /** Least recently searched first (a search moves its workspace to the end). */
  private readonly workspaces = new Map<string, WorkspaceIndex>();
  private marker: number | null = null;
  private lastSeq = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly counts = { loads: 0, loadSeconds: 0, evictions: 0, restored: 0 };
  /** Per workspace, what its saved snapshot holds (the change seq and how many vector indexes): saving again is skipped while both stand. */
  private readonly saved = new Map<string, { seq: number; vectors: number }>();
  /** Workspaces whose saved snapshot still holds something removed since: deleted after the changes are applied. */
  private readonly outdated = new Set<string>();

  private readonly feed: SearchFeed;
  /** This engine's listener for the store's announced commits, held here: the store holds it weakly. */
  private readonly heard = (committed: CommittedChanges) => this.committed(committed);
  private readonly documents: Pick<DocumentStore, "getEmbeddings">;

  /** Reads the store's feed, and the vectors of changed chunks from its documents. */
  constructor(
    store: { feed: SearchFeed; documents: Pick<DocumentStore, "getEmbeddings"> },
    private readonly opts: EngineOptions = {},
  ) {
    this.feed = store.feed;
    this.documents = store.documents;
    this.feed.onCommitted?.(this.heard);
  }

  stats(): IndexStats {
    let bytes = 0;
    for (const index of this.workspaces.values()) bytes += index.approxBytes();
    return { workspaces: this.workspaces.size, bytes, ...this.counts };
  }

  /** Candidates and their signals for one request, from one index state. */
  async search(req: SearchRequest): Promise<SearchResult> {
    const dense = req.dense ? { id: req.dense.embedderId, dimensions: req.dense.vector.length } : undefined;
    const ticket = this.feed.changeMarker();
    const index = this.current(ticket, req.workspaceId, dense) ?? (await this.refresh(req.workspaceId, dense, ticket));
    this.touch(req.workspaceId, index);
    return runSearch(index, dense ? (index.vectors.get(dense.id) ?? null) : null, req);
  }

  /** Loads the workspace's indexes now (the server does this before it reports ready) instead of on its first search. */
  async warm(workspaceId: string, embedder?: { id: string; dimensions: number }): Promise<void> {
    await this.refresh(workspaceId, embedder, this.feed.changeMarker());
  }

  /** The loaded index when nothing changed since the last look and every index the request needs is loaded; else undefined. */
  private current(ticket: number, workspaceId: string, dense: { id: string } | undefined): WorkspaceIndex | undefined {
    if (ticket !== this.marker) return undefined;
    const index = this.workspaces.get(workspaceId);
    return index && (!dense || index.vectors.has(dense.id)) ? index : undefined;
  }

  /**
   * Catches up, loads what is missing, and returns the workspace's index; one refresh runs at a time. `ticket` is the
   * marker when the request arrived: a catch-up that started after it (a marker at least as high) already saw every
   * commit the request must see, so requests queued behind one catch-up share the next instead of one each.
   */
  private refresh(
    workspaceId: string,
    dense: { id: string; dimensions: number } | undefined,
    ticket: number,
  ): Promise<WorkspaceIndex> {
    const run = this.queue.then(async () => {
      if (this.marker === null || this.marker < ticket) await this.catchUp(ticket);
      const loaded = this.workspaces.get(workspaceId);
      const started = performance.now();
      const index = loaded ?? (await this.load(workspaceId));
      const grew = !loaded || (dense !== undefined && !index.vectors.has(dense.id));
      if (dense && !index.vectors.has(dense.id)) await this.loadVectors(index, workspaceId, dense.id, dense.dimensions);
      if (grew) this.loaded(workspaceId, (performance.now() - started) / 1000);
      return index;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /** Moves the workspace to the most recently searched end (unless it was dropped meanwhile). */
  private touch(workspaceId: string, index: WorkspaceIndex): void {
    if (this.workspaces.get(workspaceId) !== index) return;
    this.workspaces.delete(workspaceId);
    this.workspaces.set(workspaceId, index);
  }

  /** Counts a load, then drops the least recently searched others while the indexes exceed the budget. */
  private loaded(workspaceId: string, seconds: number): void {
    this.counts.loads++;
    this.counts.loadSeconds += seconds;
    const budget = this.opts.budgetBytes ?? 0;
    if (budget <= 0) return;
    let bytes = this.stats().bytes;
    for (const [id, index] of this.workspaces) {
      if (bytes <= budget) return;
      if (id === workspaceId) continue;
      bytes -= index.approxBytes();
      this.workspaces.delete(id);
      this.counts.evictions++;
    }
  }

  /**
   * Replays every change committed since the last look on the loaded workspaces, all at once. `marker` is one read
   * before the changes (an older one only makes a later search look again).
   */
  private async catchUp(marker = this.feed.changeMarker()): Promise<void> {
    if (marker === this.marker) return;
    if (this.workspaces.size === 0) this.lastSeq = await this.feed.latestChange();
    else {
      const changes = await this.changesSince(this.lastSeq);
      const vectors = await this.vectorsOf(changes, (ws) => this.workspaces.get(ws)?.vectors.keys() ?? []);
      for (const change of changes) this.apply(this.workspaces.get(change.workspaceId), change, vectors);
      await this.dropOutdated();
      this.lastSeq = changes.at(-1)?.seq ?? this.lastSeq;
    }
    this.marker = marker;
  }

  /**
   * This process's own small commits, applied in the queue's turn when they follow the last change the indexes hold,
   * so the search after a write reads nothing back and applies nothing; what does not follow (another process committed
   * in between, or a catch-up got there first) or is large is left to the catch-up, which reads it from the log.
   */
  private committed({ changes, vectors }: CommittedChanges): void {
    if (changes.length > APPLY_AT_COMMIT) return;
    const run = this.queue.then(async () => {
      if (this.marker === null) return;
      let n = 0;
      while (n < changes.length && changes[n]!.seq === this.lastSeq + 1 + n) n++;
      if (n === 0) return;
      const next = changes.slice(0, n);
      const known = await this.vectorsOf(next, (ws) => this.workspaces.get(ws)?.vectors.keys() ?? [], vectors);
      for (const change of next) this.apply(this.workspaces.get(change.workspaceId), change, known);
      this.lastSeq = next.at(-1)!.seq;
      await this.dropOutdated();
    });
    this.queue = run.catch(() => {});
  }

  /**
   * Loads a workspace from its snapshot, or page by page, then replays what changed after (idempotently: a page may
   * already hold a change, and replaying the log in order ends where it ends).
   */
  private async load(workspaceId: string): Promise<WorkspaceIndex> {
    const restored = await this.restore(workspaceId);
    const index = restored?.index ?? new WorkspaceIndex();
    if (!restored) {
      index.bm25.beginLoad();
      await eachPage(
        (cursor) => this.feed.indexedChunks(workspaceId, cursor, PAGE),
        (chunk) => index.add(chunk),
      );
      index.bm25.endLoad();
    }
    const { changes, vectors } = await this.pending(workspaceId, [...index.vectors.keys()], restored?.seq);
    for (const change of changes) this.apply(index, change, vectors);
    await this.dropOutdated();
    this.workspaces.set(workspaceId, index);
    return index;
  }

  /** The workspace's saved indexes, when there is a snapshot, it is intact, and it is of this store's history. */
  private async restore(workspaceId: string): Promise<{ index: WorkspaceIndex; seq: number } | null> {
    const file = await this.opts.snapshots?.open(workspaceId).catch(() => null);
    if (!file) return null;
    try {
      const opened = openSnapshot(file);
      if (!opened) return null;
      const mark = opened.header as unknown as SnapshotMark;
      if (mark.version !== SNAPSHOT_VERSION || mark.workspaceId !== workspaceId || !(await this.sameHistory(mark)))
        return null;
      const index = WorkspaceIndex.fromPacked(opened);
      this.saved.set(workspaceId, { seq: mark.seq, vectors: index.vectors.size });
      this.counts.restored++;
      return { index, seq: mark.seq };
    } catch {
      return null; // unreadable, or parts that do not fit together: rebuild from the rows
    } finally {
      file.close();
    }
  }

  /** The store's log still holds the snapshot's last change at its seq (a store restored from an older backup does not). */
  private async sameHistory(mark: SnapshotMark): Promise<boolean> {
    if (mark.seq > (await this.feed.latestChange())) return false;
    const at = await this.changeAt(mark.seq);
    return at === null ? mark.last === null : at.chunkId === mark.last?.chunkId && at.removed === mark.last.removed;
  }

  /** The change logged at `seq` (null for 0 or a seq with no change). */
  private async changeAt(seq: number): Promise<ChunkChange | null> {
    if (seq <= 0) return null;
    const [at] = await this.feed.changesSince(seq - 1, 1);
    return at?.seq === seq ? at : null;
  }

  /**
   * Deletes the workspace's saved snapshot: after a removal (a forget, a replaced document) nothing of the removed
   * text stays on disk in it. The next save writes one without it.
   */
  async dropSnapshot(workspaceId: string): Promise<void> {
    this.saved.delete(workspaceId);
    await this.opts.snapshots?.remove(workspaceId);
  }

  private async dropOutdated(): Promise<void> {
    for (const workspaceId of this.outdated) {
      this.outdated.delete(workspaceId);
      await this.dropSnapshot(workspaceId).catch(() => {}); // not deleted: the next save replaces it
    }
  }

  /** Saves each loaded workspace whose indexes moved past their saved snapshot (a shutdown calls it). */
  async saveSnapshots(): Promise<void> {
    const snapshots = this.opts.snapshots;
    if (!snapshots) return;
    const run = this.queue.then(async () => {
      if (this.workspaces.size === 0) return;
      await this.catchUp();
      const last = await this.changeAt(this.lastSeq);
      const mark: Omit<SnapshotMark, "workspaceId"> = {
        version: SNAPSHOT_VERSION,
        seq: this.lastSeq,
        last: last ? { chunkId: last.chunkId, removed: last.removed } : null,
      };
      for (const [workspaceId, index] of this.workspaces) {
        const saved = this.saved.get(workspaceId);
        if (saved?.seq === mark.seq && saved.vectors === index.vectors.size) continue;
        const { header, arrays } = index.toPacked();
        await snapshots.write(workspaceId, pack({ header: { ...header, ...mark, workspaceId }, arrays }));
        this.saved.set(workspaceId, { seq: mark.seq, vectors: index.vectors.size });
      }
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /** Loads one embedder's vectors of a workspace; searches see the index only once it is whole and caught up. */
  private async loadVectors(
    index: WorkspaceIndex,
    workspaceId: string,
    embedderId: string,
    dimensions: number,
  ): Promise<void> {
    const loaded = new VectorIndex(dimensions, (await this.feed.vectorCount(workspaceId, embedderId)) + 1024);
    await eachPage(
      (cursor) => this.feed.chunkVectors(workspaceId, embedderId, cursor, PAGE),
      (row) => loaded.add(row.id, row.vector),
    );
    const { changes, vectors } = await this.pending(workspaceId, [embedderId]);
    index.vectors.set(embedderId, loaded);
    for (const change of changes) this.apply(index, change, vectors);
    await this.dropOutdated();
  }

  /** This workspace's changes after `after` (the engine's last seq: what committed while pages were read), with their vectors. */
  private async pending(workspaceId: string, embedderIds: readonly string[], after = this.lastSeq) {
    const changes = (await this.changesSince(after)).filter((c) => c.workspaceId === workspaceId);
    return { changes, vectors: await this.vectorsOf(changes, () => embedderIds) };
  }

  private async changesSince(seq: number): Promise<ChunkChange[]> {
    const all: ChunkChange[] = [];
    for (let after = seq; ;) {
      const page = await this.feed.changesSince(after, PAGE);
      all.push(...page);
      if (page.length < PAGE) return all;
      after = page.at(-1)!.seq;
    }
  }

  /**
   * Vectors of the added chunks from the embedders each workspace needs (by embedder id, then chunk hash): those
   * `given` (written with the changes) as they are, the others read from the store.
   */
  private async vectorsOf(
    changes: readonly ChunkChange[],
    embeddersOf: (ws: string) => Iterable<string>,
    given: readonly NewVectors[] = [],
  ): Promise<Map<string, Map<string, Float32Array>>> {
    const out = new Map<string, Map<string, Float32Array>>();
    const wanted = new Map<string, string[]>();
    for (const c of changes) {
      if (!c.chunk) continue;
      for (const embedderId of embeddersOf(c.workspaceId)) {
        const vector = given.find((v) => v.embedderId === embedderId)?.byHash.get(c.chunk.chunkHash);
        if (vector) entry(out, embedderId, () => new Map()).set(c.chunk.chunkHash, vector);
        else entry(wanted, embedderId, () => []).push(c.chunk.chunkHash);
      }
    }
    for (const [embedderId, hashes] of wanted) {
      const into = entry(out, embedderId, () => new Map());
      for (const [hash, vector] of await this.documents.getEmbeddings(embedderId, hashes)) into.set(hash, vector);
    }
    return out;
  }

  private apply(
    index: WorkspaceIndex | undefined,
    change: ChunkChange,
    vectors: Map<string, Map<string, Float32Array>>,
  ): void {
    if (!index) return;
    if (change.removed) {
      if (this.saved.has(change.workspaceId)) this.outdated.add(change.workspaceId);
      return index.remove(change.chunkId);
    }
    if (!change.chunk) return; // added, then removed again later in the log
    index.add(change.chunk);
    for (const [embedderId, vectorIndex] of index.vectors) {
      const vector = vectors.get(embedderId)?.get(change.chunk.chunkHash);
      if (vector) vectorIndex.add(change.chunkId, vector);
    }
  }
}

/** The map's value at `key`, made by `make` when there is none yet. */
function entry<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

/** Walks a feed's pages from the first, handing each row to `take`. */
async function eachPage<T>(fetch: (cursor: string | null) => Promise<Page<T>>, take: (row: T) => void): Promise<void> {
  for (let cursor: string | null = null; ;) {
    const page = await fetch(cursor);
    for (const row of page.rows) take(row);
    if ((cursor = page.next) === null) return;
  }
}
