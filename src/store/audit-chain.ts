// The rows an audit append writes, for either engine: each draft numbered after the workspace's head and hashed over
// its fields and the previous event's hash, so both stores extend one chain the same way.
import { canonicalJson, eventHash, GENESIS_HASH } from "../domain/audit/event-hash.ts";
import type { EventDraft } from "../ports/audit-log.ts";
import { eventId } from "./event-id.ts";

/** The drafts as chained event rows after `head` (the workspace's last event; none: the chain starts at GENESIS_HASH). */
export function chainEvents(
  workspaceId: string,
  drafts: readonly EventDraft[],
  head: { seq: number; hash: string } | undefined,
) {
  let seq = head?.seq ?? 0;
  let prevHash = head?.hash ?? GENESIS_HASH;
  const now = Date.now();
  return drafts.map((d) => {
    seq++;
    const fields = {
      workspaceId,
      seq,
      id: eventId(now),
      type: d.type,
      actorId: d.actorId,
      tokenId: d.tokenId,
      at: d.at,
      trajectoryId: d.trajectoryId,
      payload: canonicalJson(d.payload ?? null),
      prevHash,
    };
    const event = { ...fields, hash: eventHash(fields) };
    prevHash = event.hash;
    return event;
  });
}
