// Audit event ids in time order (UUID version 7: the millisecond first, then random bits), so each insert lands at the
// end of the events' unique id index. Random (version 4) ids put every event on a different page of that index, and a
// batch of small writes then wrote one more index page to the WAL per event.
import { randomUUID } from "node:crypto";

/** `evt_` and a version 7 UUID of `now` (milliseconds since the epoch). */
export function eventId(now: number): string {
  const time = Math.max(0, Math.floor(now)).toString(16).padStart(12, "0").slice(-12);
  // A version 4 UUID's random bits (buffered by Node), its first 48 replaced by the time and its version by 7.
  const random = randomUUID();
  return `evt_${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15)}`;
}
