// The chunk rows recall reads most, kept by id (least recently used out): a recall fetches its head's ~30 rows, and
// reading them from SQLite was a fifth of a small recall's CPU. It pays where queries return to the same evidence (an
// agent's session on one topic), not for uniformly random queries over a large vault (bench/README.md). Rows are
// frozen because every reader shares them.
import type { ChunkRecord } from "../ports/documents.ts";

/** About 1 KB a row without its stored terms (measured at 100k: ~500 characters of text and the entry), ~16 MB full. */
export const HOT_CHUNKS = 16_384;

export class ChunkCache {
  private readonly rows = new Map<number, { workspaceId: string; chunk: ChunkRecord }>();

  constructor(private readonly capacity = HOT_CHUNKS) {}

  has(id: number): boolean {
    return this.rows.has(id);
  }

  /** The row, if cached for this workspace (ids are global; a foreign workspace's row is never handed out). */
  get(id: number, workspaceId: string): ChunkRecord | undefined {
    const entry = this.rows.get(id);
    if (!entry || entry.workspaceId !== workspaceId) return undefined;
    this.rows.delete(id);
    this.rows.set(id, entry);
    return entry.chunk;
  }

  put(id: number, workspaceId: string, chunk: ChunkRecord): void {
    this.rows.delete(id);
    this.rows.set(id, { workspaceId, chunk: Object.freeze(chunk) });
    if (this.rows.size > this.capacity) this.rows.delete(this.rows.keys().next().value!);
  }

  delete(id: number): void {
    this.rows.delete(id);
  }
}
