// Opaque paging cursors: they name their workspace, so one from another workspace is refused rather than silently misread.
import { z } from "zod";
import { AppError } from "../contract/errors.ts";

export function encodeCursor(workspaceId: string, position: unknown): string {
  return Buffer.from(JSON.stringify({ w: workspaceId, s: position })).toString("base64url");
}

/** The position a cursor carries, checked against the shape its route issues (anything else is 400 invalid_cursor). */
export function decodeCursor<T>(cursor: string, workspaceId: string, position: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new AppError("invalid_cursor", "cursor is not one this service issued");
  }
  // JSON.parse also yields null, numbers and strings: anything but an object is not one of our cursors.
  const parsed = (typeof raw === "object" && raw !== null ? raw : {}) as { w?: unknown; s?: unknown };
  const at = position.safeParse(parsed.s);
  if (!at.success) throw new AppError("invalid_cursor", "cursor is not one this service issued");
  if (parsed.w !== workspaceId) throw new AppError("invalid_cursor", "cursor belongs to another workspace");
  return at.data;
}

/** The position of routes paged by an insertion sequence number. */
export const SeqPosition = z.number().int().nonnegative();

/**
 * One page of a seq-ordered listing: decodes the cursor, fetches one row more than asked to learn whether another page
 * exists, and issues the next cursor at the page's last seq. Keyset paging, so rows inserted meanwhile never shift a page.
 */
export function pageBySeq<R extends { seq: number }>(
  workspaceId: string,
  req: { limit: number; cursor?: string | undefined },
  fetch: (afterSeq: number | undefined, limit: number) => R[],
): { rows: R[]; next_cursor: string | null } {
  const rows = fetch(req.cursor ? decodeCursor(req.cursor, workspaceId, SeqPosition) : undefined, req.limit + 1);
  const shown = rows.slice(0, req.limit);
  const last = shown.at(-1);
  return { rows: shown, next_cursor: rows.length > req.limit && last ? encodeCursor(workspaceId, last.seq) : null };
}
