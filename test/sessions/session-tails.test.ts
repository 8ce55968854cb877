// A session's log is read from memory up to the last event read before, and only what came after from the store:
// appends by another handle (another process) are seen, a whole-log read is never stale, and the memory is bounded.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventLog } from "../../src/ports/event-log.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { SessionLog } from "../../src/sessions/log/session-log.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

let svc: TestService;
let reads: number[];
/** The store's log, noting where each read starts. */
let counted: EventLog;

const token = (n: number) => ({ type: "token" as const, data: { turn_id: "trn_1", text: `word${n} ` } });
const seqs = (events: readonly { seq: number }[]) => events.map((e) => e.seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

beforeAll(async () => {
  svc = await startTestService();
  const store = svc.runtime.store;
  counted = {
    appendStream: (...a) => store.streams.appendStream(...a),
    readStream: (w, s, after, limit) => (reads.push(after), store.streams.readStream(w, s, after, limit)),
    subscribeStream: (...a) => store.streams.subscribeStream(...a),
  };
});
afterAll(() => svc.cleanup());

describe("SessionLog.all", () => {
  it("reads only what follows the events it read before, and sees another handle's appends", async () => {
    const mine = new SessionLog(counted, svc.runtime.store.sessions, systemClock);
    const other = new SessionLog(svc.runtime.store.streams, svc.runtime.store.sessions, systemClock); // another process's view
    await other.appendAll(svc.workspaceId, "ses_tail1", range(1, 5).map(token));
    reads = [];
    expect(seqs(await mine.all(svc.workspaceId, "ses_tail1"))).toEqual(range(1, 5));
    await other.appendAll(svc.workspaceId, "ses_tail1", range(6, 8).map(token));
    expect(seqs(await mine.all(svc.workspaceId, "ses_tail1"))).toEqual(range(1, 8));
    expect(reads).toEqual([0, 5]); // the second read started after seq 5
    expect(seqs(await mine.all(svc.workspaceId, "ses_tail1", 3))).toEqual([1, 2, 3]);
    // A caller may extend its copy; the next read is unaffected.
    const copy = await mine.all(svc.workspaceId, "ses_tail1");
    copy.push(copy[0]!);
    expect(seqs(await mine.all(svc.workspaceId, "ses_tail1"))).toEqual(range(1, 8));
    expect(await mine.all("another-workspace", "ses_tail1")).toEqual([]);
  });

  it("keeps at most its budget of events, dropping the least recently read session first", async () => {
    const small = new SessionLog(counted, svc.runtime.store.sessions, systemClock, 10);
    await small.appendAll(svc.workspaceId, "ses_a", range(1, 6).map(token));
    await small.appendAll(svc.workspaceId, "ses_b", range(1, 6).map(token));
    await small.appendAll(svc.workspaceId, "ses_big", range(1, 12).map(token));
    await small.all(svc.workspaceId, "ses_a");
    await small.all(svc.workspaceId, "ses_b"); // 12 held: ses_a, read longest ago, leaves
    reads = [];
    await small.all(svc.workspaceId, "ses_b");
    await small.all(svc.workspaceId, "ses_a");
    expect(reads).toEqual([6, 0]);
    // A session over the whole budget is read in full each time, and still whole.
    expect(seqs(await small.all(svc.workspaceId, "ses_big"))).toEqual(range(1, 12));
    reads = [];
    expect(seqs(await small.all(svc.workspaceId, "ses_big"))).toEqual(range(1, 12));
    expect(reads).toEqual([0]);
  });
});
