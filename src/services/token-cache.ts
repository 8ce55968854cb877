// What authentication read from the store for a token hash, kept for TOKEN_RECHECK_MS so a request does not pay the
// two store reads (~0.17 ms of CPU on PostgreSQL, a round trip each): another process's revocation (`smriti token
// revoke`, a second replica) is seen within that bound; this process's own clears the cache at once.
import type { TokenRecord, Workspace } from "../ports/workspaces.ts";

/** How long a token's stored record is trusted before it is read again: the bound on seeing another process's change. */
export const TOKEN_RECHECK_MS = 1000;
/** Tokens kept at most (the oldest read goes first): a flood of distinct tokens cannot grow the process. */
const MAX_TOKENS = 4096;

export interface StoredToken {
  record: TokenRecord;
  workspace: Workspace | undefined;
}

interface Entry {
  readAt: number;
  stored: Promise<StoredToken | undefined>;
}

export class TokenCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly recheckMs = TOKEN_RECHECK_MS,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** The stored token for `hash`, read with `load` unless read within the bound; an unknown token is never kept, so a
   * token created elsewhere works at once. Concurrent requests for one token share one read. */
  get(hash: string, load: () => Promise<StoredToken | undefined>): Promise<StoredToken | undefined> {
    const now = this.clock();
    const hit = this.entries.get(hash);
    if (hit && now - hit.readAt < this.recheckMs) return hit.stored;
    if (this.recheckMs <= 0) return load();
    const entry: Entry = { readAt: now, stored: load() };
    this.entries.delete(hash); // re-inserted last: the map's order is the order of reads
    this.entries.set(hash, entry);
    if (this.entries.size > MAX_TOKENS) this.entries.delete(this.entries.keys().next().value!);
    const forget = () => {
      if (this.entries.get(hash) === entry) this.entries.delete(hash);
    };
    entry.stored.then((stored) => stored ?? forget(), forget);
    return entry.stored;
  }

  /** After a change to tokens or workspaces made in this process: every token is read again on its next use. */
  clear(): void {
    this.entries.clear();
  }
}
