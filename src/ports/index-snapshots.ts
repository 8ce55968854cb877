// Where a process keeps its in-memory indexes between runs, so a restart (or a one-shot command) reads them back and
// replays the change log after them instead of rebuilding them from every row.
export interface IndexSnapshots {
  /** The workspace's saved snapshot, or null when there is none (or it cannot be read). */
  read(workspaceId: string): Promise<Uint8Array | null>;
  /** Replaces the workspace's snapshot with these parts, all or nothing. */
  write(workspaceId: string, parts: readonly Uint8Array[]): Promise<void>;
  /** Deletes the workspace's snapshot, if there is one. */
  remove(workspaceId: string): Promise<void>;
}
