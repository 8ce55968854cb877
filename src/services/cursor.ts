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

/** The position of a listing that walks either way: the seq and the direction the cursor continues. */
const WalkPosition = z.tuple([SeqPosition, z.enum(["asc", "desc"])]);

/** The direction a cursor of a two-way listing (pageBySeq with `order`) continues. */
export function cursorOrder(cursor: string, workspaceId: string): "asc" | "desc" {
  return decodeCursor(cursor, workspaceId, WalkPosition)[1];
}

/**
 * One page of a seq-ordered listing: decodes the cursor, fetches one row more than asked to learn whether another page
 * exists, and issues the next cursor at the page's last seq. Keyset paging, so rows inserted meanwhile never shift a page.
 * With `order` the cursor also carries the direction, and one issued for the other direction is 400 invalid_cursor.
 */
export async function pageBySeq<R extends { seq: number }>(
  workspaceId: string,
  req: { limit: number; cursor?: string | undefined },
  fetch: (afterSeq: number | undefined, limit: number) => Promise<R[]>,
  order?: "asc" | "desc",
): Promise<{ rows: R[]; next_cursor: string | null }> {
  let after: number | undefined;
  if (req.cursor && order === undefined) after = decodeCursor(req.cursor, workspaceId, SeqPosition);
  else if (req.cursor) {
    const [seq, walks] = decodeCursor(req.cursor, workspaceId, WalkPosition);
    if (walks !== order)
      throw new AppError(
        "invalid_cursor",
        `the cursor continues the ${walks === "asc" ? "oldest" : "newest"}-first walk it was issued for`,
      );
    after = seq;
  }
  const rows = await fetch(after, req.limit + 1);
  const shown = rows.slice(0, req.limit);
  const last = shown.at(-1);
  if (!(rows.length > req.limit && last)) return { rows: shown, next_cursor: null };
  return { rows: shown, next_cursor: encodeCursor(workspaceId, order === undefined ? last.seq : [last.seq, order]) };
}
