// POST /v1/meetings/extract and service_meeting_extract: every format through HTTP, literal citations on the right turns, bad input, and MCP parity.
import { describe, expect, it } from "vitest";
import type { Citation } from "../../src/contract/citation.ts";
import { limits } from "../../src/contract/limits.ts";
import type { MeetingExtractResponse } from "../../src/contract/meetings.ts";
import { operations } from "../../src/contract/operations.ts";
import { contentHash } from "../../src/domain/text/hash.ts";
import { callTool, toolError, useMcpService } from "../helpers/mcp-client.ts";

const SPEAKERS = `Attendees: Alice Chen, Bob, Carol, Dave (PM)

[00:00:05] Alice: Thanks for joining. Today is about the database.
[00:00:20] Bob: I benchmarked Postgres and SQLite last week.
Postgres wins on concurrent writes.
[00:01:02] Alice: OK. We decided to go with Postgres for the launch.
[00:01:10] Bob: I'll write the migration plan by Friday.
[00:01:30] Alice: Can you review the schema, Carol?
[00:01:41] Carol: What about the backup budget?
[00:01:50] Bob: I don't know, let's come back to that.
`;

const VTT = `WEBVTT

1
00:00:01.000 --> 00:00:04.000
<v Ann>Should we move the launch to March?</v>

2
00:00:04.500 --> 00:00:06.000
<v Raj>Yes, marketing needs the extra month.

3
00:00:06.500 --> 00:00:09.000
<v Ann>Agreed. Raj will update the roadmap tomorrow.
`;

const SRT = `1
00:00:01,000 --> 00:00:03,000
Mia: Could you send the slides?

2
00:00:03,200 --> 00:00:05,000
Leo: Sure, by 2024-06-03.
`;

const PLAIN = "we looked at the vendor quotes\nwe will need to order the parts by Monday\nwho signs the contract?\n";

const ctx = useMcpService();

async function extract(body: unknown): Promise<MeetingExtractResponse> {
  const res = await ctx.svc.post("/v1/meetings/extract", body);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as MeetingExtractResponse;
}

/** Every citation quotes the transcript literally and hashes its own span; items list as many turns as citations. */
function expectLiteral(transcript: string, r: MeetingExtractResponse): void {
  const check = (c: Citation) => {
    expect(transcript).toContain(c.text_span);
    expect(c.chunk_hash).toBe(contentHash(c.text_span));
    expect(c.source_path).toBe(r.source_path);
  };
  for (const item of [...r.decisions, ...r.action_items, ...r.open_questions, ...r.summary]) {
    expect(item.turns).toHaveLength(item.citations.length);
    item.citations.forEach(check);
  }
  for (const a of r.attendees) check(a.citation);
}

describe("POST /v1/meetings/extract", () => {
  it("speaker lines: attendees, decision, owned and dated actions, an open question, each citing its turn", async () => {
    const r = await extract({ transcript: SPEAKERS, source_path: "meetings/db.txt", meeting_date: "2024-05-01" });
    expect(r).toMatchObject({ source_path: "meetings/db.txt", format: "speaker_turns", turn_count: 7 });
    expect(r.attendees.map((a) => [a.name, a.source, a.turn_count, a.first_turn])).toEqual([
      ["Alice", "both", 3, 0],
      ["Bob", "both", 3, 1],
      ["Carol", "both", 1, 5],
      ["Dave", "attendee_list", 0, null],
    ]);
    expect(r.attendees[3]!.citation).toMatchObject({ text_span: "Dave", anchor: "L1-L1" });
    expect(r.decisions.map((d) => [d.text, d.speaker, d.turns, d.citations[0]!.anchor])).toEqual([
      ["We decided to go with Postgres for the launch.", "Alice", [2], "00:01:02"],
    ]);
    expect(r.action_items.map((a) => [a.text, a.owner, a.owner_basis, a.due, a.turns])).toEqual([
      ["I'll write the migration plan by Friday.", "Bob", "self", { text: "by Friday", date: "2024-05-03" }, [3]],
      ["Can you review the schema, Carol?", "Carol", "addressed", null, [4]],
    ]);
    expect(r.open_questions.map((q) => [q.text, q.speaker, q.turns, q.citations.map((c) => c.text_span)])).toEqual([
      [
        "What about the backup budget?",
        "Carol",
        [5, 6],
        ["What about the backup budget?", "I don't know, let's come back to that."],
      ],
    ]);
    expect(r.summary.length).toBe(1);
    expectLiteral(SPEAKERS, r);
  });

  it("cites the right turns: a continuation line belongs to its speaker's turn", async () => {
    const r = await extract({ transcript: "Ann: Intro.\nBo: First line.\nWe decided to use Rust.\nAnn: Fine.\n" });
    expect(r.decisions.map((d) => [d.speaker, d.turns, d.citations[0]!.anchor])).toEqual([["Bo", [1], "L3-L3"]]);
  });

  it("WebVTT: voice tags, answered question, named owner with a resolved relative date", async () => {
    const r = await extract({ transcript: VTT, meeting_date: "2024-05-01" });
    expect(r.format).toBe("vtt");
    expect(r.turn_count).toBe(3);
    expect(r.attendees.map((a) => a.name)).toEqual(["Ann", "Raj"]);
    expect(r.open_questions).toEqual([]);
    expect(r.decisions.map((d) => [d.text, d.speaker, d.turns, d.citations.map((c) => c.anchor)])).toEqual([
      ["Yes, marketing needs the extra month.", "Raj", [1, 2], ["00:00:04.500", "00:00:06.500"]],
    ]);
    expect(r.action_items.map((a) => [a.text, a.owner, a.owner_basis, a.due])).toEqual([
      ["Raj will update the roadmap tomorrow.", "Raj", "named", { text: "tomorrow", date: "2024-05-02" }],
    ]);
    expectLiteral(VTT, r);
  });

  it("SRT: a request accepted in the next cue; the due date comes from the reply, which is cited too", async () => {
    const r = await extract({ transcript: SRT });
    expect(r.format).toBe("srt");
    expect(
      r.action_items.map((a) => [a.owner, a.owner_basis, a.due, a.turns, a.citations.map((c) => c.text_span)]),
    ).toEqual([
      [
        "Leo",
        "accepted",
        { text: "by 2024-06-03", date: "2024-06-03" },
        [0, 1],
        ["Could you send the slides?", "Sure, by 2024-06-03."],
      ],
    ]);
    expect(r.open_questions).toEqual([]);
    expectLiteral(SRT, r);
  });

  it("plain lines without speakers: a well-formed result with speaker null and no attendees", async () => {
    const r = await extract({ transcript: PLAIN });
    expect(r).toMatchObject({
      format: "plain",
      turn_count: 3,
      attendees: [],
      decisions: [],
      source_path: `text/${contentHash(PLAIN).slice(7, 19)}`,
    });
    expect(r.action_items.map((a) => [a.text, a.owner, a.speaker, a.due?.text, a.due?.date])).toEqual([
      ["we will need to order the parts by Monday", null, null, "by Monday", null],
    ]);
    expect(r.open_questions.map((q) => [q.text, q.speaker, q.turns])).toEqual([["who signs the contract?", null, [2]]]);
    expectLiteral(PLAIN, r);
  });

  it("writes nothing", async () => {
    const { store } = ctx.svc.runtime;
    const events = (await store.audit.listEvents(ctx.svc.workspaceId, { limit: 1000 })).length;
    await extract({ transcript: SPEAKERS });
    expect(await store.documents.listDocuments(ctx.svc.workspaceId)).toEqual([]);
    expect(await store.audit.listEvents(ctx.svc.workspaceId, { limit: 1000 })).toHaveLength(events);
  });

  it("400 invalid_request for an empty, blank or over-long transcript and a bad meeting_date; 413 for a body over the limit", async () => {
    for (const body of [
      { transcript: "" },
      { transcript: " \n\t" },
      {},
      { transcript: PLAIN, meeting_date: "Friday" },
      { transcript: PLAIN, source_path: "" },
      { transcript: "x".repeat(limits.maxContentChars + 1) },
    ]) {
      const res = await ctx.svc.post("/v1/meetings/extract", body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    }
    const huge = await ctx.svc.post("/v1/meetings/extract", { transcript: "y".repeat(limits.maxBodyBytes) });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
  });

  it("a transcript at the size limit is answered, not a 500", async () => {
    const line = `Ann: ${"word ".repeat(398)}end\n`;
    const transcript = line.repeat(Math.floor(limits.maxContentChars / line.length));
    const r = await extract({ transcript });
    expect(r.turn_count).toBe(Math.floor(limits.maxContentChars / line.length));
    expect(r.attendees.map((a) => a.name)).toEqual(["Ann"]);
  }, 60_000);
});

describe("service_meeting_extract over MCP", () => {
  it("is listed with the table's description and returns the same result as HTTP", async () => {
    const client = await ctx.connect();
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "service_meeting_extract")?.description).toBe(
      operations.meeting_extract.description,
    );
    const args = { transcript: SPEAKERS, source_path: "meetings/db.txt", meeting_date: "2024-05-01" };
    const viaMcp = await callTool<MeetingExtractResponse>(client, "service_meeting_extract", args);
    const viaHttp = await extract(args);
    const strip = (r: MeetingExtractResponse) =>
      JSON.parse(JSON.stringify(r, (k, v: unknown) => (k === "retrieved_at" ? undefined : v))) as unknown;
    expect(strip(viaMcp)).toEqual(strip(viaHttp));
    expect(
      toolError(await client.callTool({ name: "service_meeting_extract", arguments: { transcript: "" } })).code,
    ).toBe("invalid_request");
  });
});
