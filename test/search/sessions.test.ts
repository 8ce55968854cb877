// Session context: which turns the index reads as one session, and that a turn of a session whose best candidate is
// weak is lowered against the query's best session, while chunks that are no turn keep their logit.
import { describe, expect, it } from "vitest";
import { weighSessions } from "../../src/search/sessions.ts";
import { WorkspaceIndex } from "../../src/search/workspace-index.ts";
import { turnChunk } from "./turn-chunk.ts";

const HOUR = 3600_000;
const chunk = turnChunk;

describe("WorkspaceIndex.sessionOf", () => {
  it("names a session by its first turn: turns of one folder with no gap over the window, in write order", () => {
    const index = new WorkspaceIndex();
    [1, 2, 3].forEach((id) => index.add(chunk(id, `chat/${id}`, id * HOUR)));
    [4, 5].forEach((id) => index.add(chunk(id, `chat/${id}`, 40 * HOUR + id))); // the next day: another session
    index.add(chunk(6, "chat/6", 80 * HOUR)); // a turn alone in its session
    index.add(chunk(7, "notes/a.md", 80 * HOUR, "A paragraph of notes."));
    expect([5, 1, 2, 3, 4, 6, 7, 99].map((id) => index.sessionOf(id, 6 * HOUR))).toEqual([
      4,
      1,
      1,
      1,
      4,
      null,
      null,
      null,
    ]);
  });

  it("gives a turn more than 64 turns after its session's start none, whatever was asked before", () => {
    const turns = (index: WorkspaceIndex) => {
      for (let id = 1; id <= 100; id++) index.add(chunk(id, `chat/${id}`, id * 60_000));
      return index;
    };
    const late = turns(new WorkspaceIndex());
    expect([100, 50, 65, 66, 100].map((id) => late.sessionOf(id, 6 * HOUR))).toEqual([null, 1, 1, null, null]);
    const early = turns(new WorkspaceIndex());
    expect([50, 65, 66, 100].map((id) => early.sessionOf(id, 6 * HOUR))).toEqual([1, 1, null, null]);
  });

  it("reads the sessions again after the index changes", () => {
    const index = new WorkspaceIndex();
    index.add(chunk(1, "chat/1", 0));
    index.add(chunk(2, "chat/2", 0, "A note between two turns."));
    index.add(chunk(3, "chat/3", 0));
    index.add(chunk(4, "chat/4", 0));
    expect([1, 3, 4].map((id) => index.sessionOf(id, HOUR))).toEqual([null, 3, 3]);
    index.remove(2);
    expect([1, 3, 4].map((id) => index.sessionOf(id, HOUR))).toEqual([1, 1, 1]);
  });
});

describe("weighSessions", () => {
  const candidate = (base: number, session: number | null) => ({
    base,
    session,
    contributions: {} as Record<string, number>,
  });

  it("lowers turns by the weight times their session's gap to the best session, and leaves other chunks alone", () => {
    const cs = [candidate(2, 10), candidate(0, 10), candidate(1, 20), candidate(-1, 20), candidate(0.5, null)];
    weighSessions(cs, (c) => c.session, { weight: 0.5 });
    expect(cs.map((c) => c.base)).toEqual([2, 0, 0.5, -1.5, 0.5]);
    expect(cs.map((c) => c.contributions["session"])).toEqual([undefined, undefined, -0.5, -0.5, undefined]);
  });

  it("changes nothing with one session", () => {
    const cs = [candidate(2, 7), candidate(0, 7), candidate(1, null)];
    weighSessions(cs, (c) => c.session, { weight: 0.5 });
    expect(cs.map((c) => c.base)).toEqual([2, 0, 1]);
  });
});
