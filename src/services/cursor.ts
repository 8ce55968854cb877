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
