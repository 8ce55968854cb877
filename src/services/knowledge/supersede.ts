// Explicit supersession of a knowledge record (issue 45): checked here for a clear error, enforced again in the write.
import { AppError } from "../../contract/errors.ts";
import type { RecordKind, RecordStore, Supersede } from "../../ports/records.ts";

/** The link a new record's write carries when it replaces `oldId`; unknown, foreign or already replaced ids are refused. */
export async function supersession(
  records: Pick<RecordStore, "getRecord">,
  workspaceId: string,
  kind: RecordKind,
  oldId: string | undefined,
  replacement: { id: string; sourcePath: string; at: number },
): Promise<Supersede | undefined> {
  if (oldId === undefined) return undefined;
  const old = await records.getRecord(workspaceId, oldId);
  // Another workspace's record is not found here: the workspace id is part of the look-up.
  if (!old || old.kind !== kind)
    throw new AppError("supersedes_not_found", `no ${kind} '${oldId}' in this workspace to supersede`, {
      supersedes: oldId,
    });
  const body = old.body as { superseded_by?: string | null; source_path: string };
  if (body.superseded_by)
    throw new AppError("already_superseded", `${oldId} was already superseded by ${body.superseded_by}`, {
      supersedes: oldId,
      superseded_by: body.superseded_by,
    });
  return {
    kind,
    oldId,
    newId: replacement.id,
    oldPath: body.source_path,
    newPath: replacement.sourcePath,
    at: replacement.at,
  };
}
