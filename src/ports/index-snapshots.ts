// Where a process keeps its in-memory indexes between runs, so a restart (or a one-shot command) reads them back and
// replays the change log after them instead of rebuilding them from every row.
/** Random access to a saved file's bytes: a file read by parts, or bytes in memory. */
export interface ByteSource {
  readonly size: number;
  /** Fills as much of `target` as it can with the bytes at `position`; returns how many it filled. */
  read(target: Uint8Array, position: number): number;
}

/** An opened snapshot: read it by parts, then close it. */
export interface SnapshotFile extends ByteSource {
  close(): void;
}

export interface IndexSnapshots {
  /** The workspace's saved snapshot opened for reading by parts, or null when there is none (or it cannot be read). */
  open(workspaceId: string): Promise<SnapshotFile | null>;
  /** Replaces the workspace's snapshot with these parts, all or nothing. */
  write(workspaceId: string, parts: readonly Uint8Array[]): Promise<void>;
  /** Deletes the workspace's snapshot, if there is one. */
  remove(workspaceId: string): Promise<void>;
}
