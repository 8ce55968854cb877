// Open loops over the workspace's stored documents: markers found by the pure detector, cited into their chunks.
import { z } from "zod";
import type { OpenLoop, OpenLoopsRequest, OpenLoopsResponse } from "../../contract/open-loops.ts";
import { OpenLoopsRequest as OpenLoopsRequestSchema } from "../../contract/open-loops.ts";
import { findOpenLoops } from "../../domain/knowledge/open-loops.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentStore } from "../../ports/documents.ts";
import { citationOf, spanCitation } from "../memory/citations.ts";
import { decodeCursor, encodeCursor } from "../cursor.ts";

const LoopPosition = z.tuple([z.string(), z.number().int().min(1)]);

export class OpenLoopService {
  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
  ) {}

  async list(workspaceId: string, input: OpenLoopsRequest): Promise<OpenLoopsResponse> {
    const req = OpenLoopsRequestSchema.parse(input);
    const now = this.clock.now();
    const loops: OpenLoop[] = [];
    // Pages resume after the last (source_path, line) shown, so a loop added or resolved elsewhere never shifts the rest.
    const after = req.cursor ? decodeCursor(req.cursor, workspaceId, LoopPosition) : null;
    const page = (truncated: boolean): OpenLoopsResponse => {
      const last = loops.at(-1);
      return {
        loops,
        truncated,
        next_cursor: truncated && last ? encodeCursor(workspaceId, [last.source_path, last.line]) : null,
      };
    };
    for (const doc of await this.store.listDocuments(workspaceId, req.source_path_prefix)) {
      if (after && doc.sourcePath < after[0]) continue;
      const found = findOpenLoops(doc.content).filter((l) => !after || doc.sourcePath > after[0] || l.line > after[1]);
      if (found.length === 0) continue;
      const chunks = await this.store.documentChunks(workspaceId, doc.sourcePath);
      let at = 0;
      for (const loop of found) {
        if (loops.length === req.limit) return page(true);
        const text = doc.content.slice(loop.start, loop.end);
        // Chunk text is content.slice(start, end), so a line inside a chunk is cited as a narrowed span of that chunk.
        // Loops and chunks are both in offset order, so one forward pass pairs them.
        while (at < chunks.length && (chunks[at]?.end ?? 0) < loop.end) at++;
        const candidate = chunks[at];
        const chunk = candidate && candidate.start <= loop.start ? candidate : undefined;
        const citation = chunk
          ? citationOf(chunk, 1, now, { start: loop.start - chunk.start, end: loop.end - chunk.start })
          : spanCitation(doc.sourcePath, `L${loop.line}-L${loop.line}`, text, 1, now);
        loops.push({
          source_path: doc.sourcePath,
          line: loop.line,
          marker: loop.marker,
          text,
          owner: loop.owner,
          due: loop.due,
          citation,
        });
      }
    }
    return page(false);
  }
}
