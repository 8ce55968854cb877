// The meeting copilot's pure parts: transcript formats, owners, due dates, open questions, summary, and literal spans with the right turns.
import { describe, expect, it } from "vitest";
import { findDue } from "../../src/domain/meetings/due-dates.ts";
import { extractMeeting, type ItemDraft, type MeetingDraft } from "../../src/domain/meetings/copilot.ts";
import { parseTranscript } from "../../src/domain/meetings/transcript.ts";
import { prng } from "../helpers/prng.ts";

const NO_DATE = { meetingDate: null };

/** Every span is inside the turn it names, so the turn indices an item lists are the turns its text came from. */
function expectSpansInTurns(text: string, m: MeetingDraft): void {
  const items: ItemDraft[] = [...m.decisions, ...m.actionItems, ...m.openQuestions, ...m.summary];
  const outside = items
    .flatMap((item) => item.spans)
    .filter((s) => {
      const turn = m.turns[s.turn];
      return (
        !turn || s.start < turn.start || s.end > turn.end || s.end <= s.start || !/\S/.test(text.slice(s.start, s.end))
      );
    });
  expect(outside).toEqual([]);
}

const turnsOf = (text: string) =>
  parseTranscript(text).turns.map((t) => [t.speaker, text.slice(t.start, t.end), t.timestamp]);

describe("transcript formats", () => {
  it("speaker lines, with optional [hh:mm:ss] prefixes; unlabelled lines continue the turn; 'Attendees:' is not a turn", () => {
    const text =
      "Attendees: Ann, Bo\n\n[00:00:05] Ann: Hello all.\nSecond line of Ann.\n[00:01:10] Bo Lee: Hi.\nDecision: ship it\n";
    const t = parseTranscript(text);
    expect(t.format).toBe("speaker_turns");
    expect(turnsOf(text)).toEqual([
      ["Ann", "Hello all.\nSecond line of Ann.", "00:00:05"],
      ["Bo Lee", "Hi.\nDecision: ship it", "00:01:10"],
    ]);
    expect(t.attendeeLists.map((s) => text.slice(s.start, s.end))).toEqual(["Ann, Bo"]);
  });

  it("Hansard-style labels: titles, particles and a '(riding, party)' note after the name", () => {
    const text =
      "Mr. Jack Harris (St. John's East, NDP): Thank you, Chair.\nThe Chair (Hon. Anthony Rota (NipissingTimiskaming, Lib.)): Go ahead.\nMr. Chris d'Entremont: Merci.\n";
    expect(turnsOf(text).map(([speaker, said]) => [speaker, said])).toEqual([
      ["Mr. Jack Harris", "Thank you, Chair."],
      ["The Chair", "Go ahead."],
      ["Mr. Chris d'Entremont", "Merci."],
    ]);
  });

  it("WebVTT: <v> voice tags name the speaker, NOTE blocks and cue ids are skipped, </v> is not text", () => {
    const text =
      "WEBVTT\n\nNOTE recorded by the bot\n\n1\n00:00:01.000 --> 00:00:04.000\n<v Alice Chen>We decided to go with Postgres.</v>\n\n00:00:05.000 --> 00:00:07.500\n<v.loud Bob>I'll write the migration\nplan by Friday.\n\n00:00:08.000 --> 00:00:09.000\nNo voice tag here.\n";
    expect(parseTranscript(text).format).toBe("vtt");
    expect(turnsOf(text)).toEqual([
      ["Alice Chen", "We decided to go with Postgres.", "00:00:01.000"],
      ["Bob", "I'll write the migration\nplan by Friday.", "00:00:05.000"],
      [null, "No voice tag here.", "00:00:08.000"],
    ]);
  });

  it("SRT: numbered cues; a 'Name:' prefix names the speaker, '- A: / - B:' lines are two turns", () => {
    const text =
      "1\r\n00:00:01,000 --> 00:00:03,000\r\nCAROL: Can you send the deck, Dan?\r\n\r\n2\r\n00:00:03,500 --> 00:00:05,000\r\n- Dan: Sure.\r\n- Carol: Thanks.\r\n";
    expect(parseTranscript(text).format).toBe("srt");
    expect(turnsOf(text)).toEqual([
      ["CAROL", "Can you send the deck, Dan?", "00:00:01,000"],
      ["Dan", "Sure.", "00:00:03,500"],
      ["Carol", "Thanks.", "00:00:03,500"],
    ]);
  });

  it("plain lines: one turn per non-blank line, no speakers; 'Note:'-style labels and one-off colons do not make speakers", () => {
    const text = "we met about the launch\n\nNote: budget is tight\nthe demo is on Monday\nBudget: 5k\n";
    const t = parseTranscript(text);
    expect(t.format).toBe("plain");
    expect(t.turns.map((x) => [x.speaker, text.slice(x.start, x.end)])).toEqual([
      [null, "we met about the launch"],
      [null, "Note: budget is tight"],
      [null, "the demo is on Monday"],
      [null, "Budget: 5k"],
    ]);
  });

  it("prose with URLs and lower-case 'note to self:' stays plain", () => {
    expect(
      parseTranscript("see https://example.com/x for details\nnote to self: call the vendor\nmore prose here").format,
    ).toBe("plain");
  });
});

describe("action items", () => {
  const text = [
    "Attendees: Alice Chen, Bob, Carol, Dave",
    "Alice: Bob will draft the press release by Friday.",
    "Bob: I'll send the figures to finance tomorrow.",
    "Alice: Can you review the schema, Carol?",
    "Alice: Dave, could you book the room?",
    "Carol: Could you check the invoices?",
    "Dave: Sure, no problem.",
    "Bob: Could you summarize the thread?",
    "Carol: Why me?",
    "Alice: We need to update the roadmap. I think the weather is nice.",
    "Action: Carol to file the expense report",
    "Carol: I 'll email the vendor .",
  ].join("\n");
  const m = extractMeeting(text, { meetingDate: "2024-05-01" });
  const rows = m.actionItems.map((a) => [
    a.text,
    a.owner,
    a.ownerBasis,
    a.due?.text ?? null,
    a.due?.date ?? null,
    a.spans.map((s) => s.turn),
  ]);

  it("finds owners: self, named, addressed (either side), accepted by the next speaker; team actions have none", () => {
    expect(rows).toEqual([
      ["Bob will draft the press release by Friday.", "Bob", "named", "by Friday", "2024-05-03", [0]],
      ["I'll send the figures to finance tomorrow.", "Bob", "self", "tomorrow", "2024-05-02", [1]],
      ["Can you review the schema, Carol?", "Carol", "addressed", null, null, [2]],
      ["Dave, could you book the room?", "Dave", "addressed", null, null, [3]],
      ["Could you check the invoices?", "Dave", "accepted", null, null, [4, 5]],
      ["We need to update the roadmap.", null, null, null, null, [8]],
      ["Action: Carol to file the expense report", "Carol", "named", null, null, [8]],
      ["I 'll email the vendor .", "Carol", "self", null, null, [9]],
    ]);
    expectSpansInTurns(text, m);
  });

  it("an unnamed request nobody accepts is not an item, and the acceptance is not listed twice", () => {
    expect(rows.some((r) => r[0] === "Could you summarize the thread?")).toBe(false);
    expect(rows.some((r) => r[0] === "Sure, no problem.")).toBe(false);
  });

  it("a first name refers to the listed full name only when it is unambiguous", () => {
    const two = extractMeeting("Attendees: Alice Chen, Alice Wu\nBob: Alice will send it.\nCarol: OK.", NO_DATE);
    expect(two.actionItems[0]?.owner).toBe("Alice");
    const one = extractMeeting("Attendees: Alice Chen\nBob: Alice will send it.\nCarol: OK.", NO_DATE);
    expect(one.actionItems[0]?.owner).toBe("Alice Chen");
  });

  it("talk is not a task: 'I'll be honest', 'I can see', 'It will take'", () => {
    const m2 = extractMeeting(
      "Ann: I'll be honest with you.\nBo: I can see the slides.\nAnn: It will rain.\nBo: Friday will be busy.",
      NO_DATE,
    );
    expect(m2.actionItems).toEqual([]);
  });
});

describe("due dates", () => {
  // 2024-05-01 is a Wednesday.
  const cases: [string, string | null, string | null][] = [
    ["I'll do it by Friday", "by Friday", "2024-05-03"],
    ["send it next Friday", "next Friday", "2024-05-10"],
    ["by Wednesday please", "by Wednesday", "2024-05-08"],
    ["done by tomorrow", "by tomorrow", "2024-05-02"],
    ["by end of week", "by end of week", "2024-05-03"],
    ["by the end of the month", "by the end of the month", "2024-05-31"],
    ["in 2 weeks", "in 2 weeks", "2024-05-15"],
    ["before March 3", "before March 3", "2025-03-03"],
    ["due on May 20th", "due on May 20th", "2024-05-20"],
    ["by 3 June 2025", "by 3 June 2025", "2025-06-03"],
    ["deadline 2024-06-01", "2024-06-01", "2024-06-01"],
    ["before the next meeting", "before the next meeting", null],
    ["ASAP", "ASAP", null],
  ];
  for (const [text, phrase, date] of cases)
    it(`"${text}" -> ${phrase} = ${date}`, () => {
      const d = findDue(text, "2024-05-01");
      expect(d && text.slice(d.start, d.end)).toBe(phrase);
      expect(d?.date).toBe(date);
    });

  it("without a meeting date only dates with a year resolve; impossible dates do not", () => {
    expect(findDue("by Friday", null)).toEqual({ start: 0, end: 9, date: null });
    expect(findDue("by March 3, 2024", null)?.date).toBe("2024-03-03");
    expect(findDue("on 2024-02-30", null)?.date).toBeNull();
    expect(findDue("no date in here", "2024-05-01")).toBeNull();
  });
});

describe("open questions", () => {
  it("answered by another speaker = resolved; deferred, ignored or self-answered = open; tag questions are not questions", () => {
    const text = [
      "Ann: What is the budget for the launch?",
      "Bo: It is forty thousand dollars.",
      "Ann: Who owns the on-call rota?",
      "Ann: Also the slides are done.",
      "Bo: Nice.",
      "Cy: OK.",
      "Bo: Do we need a second vendor?",
      "Cy: I don't know, let's come back to that.",
      "Ann: Is the room booked?",
      "Bo: Yes.",
      "Cy: That went well, right?",
      "Ann: Open question: hosting costs",
    ].join("\n");
    const m = extractMeeting(text, NO_DATE);
    expect(m.openQuestions.map((q) => [q.text, q.spans.map((s) => s.turn)])).toEqual([
      ["Who owns the on-call rota?", [2]],
      ["Do we need a second vendor?", [6, 7]],
      ["Open question: hosting costs", [11]],
    ]);
    expect(text.slice(m.openQuestions[1]!.spans[1]!.start, m.openQuestions[1]!.spans[1]!.end)).toBe(
      "I don't know, let's come back to that.",
    );
    expectSpansInTurns(text, m);
  });

  it("without speakers, the next lines answer", () => {
    const m = extractMeeting(
      "what time is the demo tomorrow?\nthe demo is at ten in room four\nwhere do we store the recordings?\n",
      NO_DATE,
    );
    expect(m.openQuestions.map((q) => q.text)).toEqual(["where do we store the recordings?"]);
    expect(m.openQuestions[0]!.speaker).toBeNull();
  });
});

describe("decisions and summary", () => {
  it("finds spoken decision forms and leaves discussion alone", () => {
    const m = extractMeeting(
      [
        "Ann: We decided to move the launch to March.",
        "Bo: Let's go with the blue casing.",
        "Cy: Agreed.",
        "Ann: Decision: Postgres 16.",
        "Bo: We might decide later.",
        "Cy: I like the red one.",
        "Ann: So we'll use the rubber case then.",
      ].join("\n"),
      NO_DATE,
    );
    expect(m.decisions.map((d) => [d.speaker, d.text, d.spans.map((s) => s.turn)])).toEqual([
      ["Ann", "We decided to move the launch to March.", [0]],
      ["Bo", "Let's go with the blue casing.", [1, 2]],
      ["Ann", "Decision: Postgres 16.", [3]],
      ["Ann", "So we'll use the rubber case then.", [6]],
    ]);
  });

  it("an accepted proposal is a decision stated by the proposer and citing the acceptance; with no proposal in view the agreement stands alone; 'I agree' is not one", () => {
    const text = [
      "Ann: Maybe we could print the logo on the back.",
      "Bo: Yeah.",
      "Cy: That's a good idea.",
      "Bo: I think the battery should be a kinetic one.",
      "Bo: Sounds good to me.",
      "Cy: I agree with the kinetic battery plan but it costs more.",
    ].join("\n");
    const m = extractMeeting(text, NO_DATE);
    expect(m.decisions.map((d) => [d.speaker, d.text, d.spans.map((s) => s.turn)])).toEqual([
      ["Ann", "Maybe we could print the logo on the back.", [0, 2]],
      ["Bo", "Sounds good to me.", [4]],
    ]);
    expectSpansInTurns(text, m);
  });

  it("summary picks the sentences central to the meeting, in order, deterministically", () => {
    const lines = [
      "Ann: The database migration needs a rollback plan before the launch.",
      "Bo: My cat knocked over a plant on the windowsill this morning.",
      "Cy: The migration rollback plan should cover the database schema and the launch data.",
      ...Array.from(
        { length: 30 },
        (_, i) =>
          `${i % 2 ? "Ann" : "Bo"}: We discussed the database migration and launch detail number ${i} at length today.`,
      ),
    ];
    const text = lines.join("\n");
    const a = extractMeeting(text, NO_DATE);
    expect(a.summary.length).toBe(2);
    expect(a.summary.map((s) => s.spans[0]!.turn)).toEqual(
      [...a.summary.map((s) => s.spans[0]!.turn)].sort((x, y) => x - y),
    );
    expect(a.summary.some((s) => s.text.includes("cat"))).toBe(false);
    for (const s of a.summary) expect(s.score).toBeGreaterThan(0);
    expect(extractMeeting(text, NO_DATE).summary).toEqual(a.summary);
  });

  it("an empty or one-word meeting has no summary and no items, and is well-formed", () => {
    const m = extractMeeting("hi\n", NO_DATE);
    expect(m).toMatchObject({
      format: "plain",
      attendees: [],
      decisions: [],
      actionItems: [],
      openQuestions: [],
      summary: [],
    });
    expect(m.turns).toHaveLength(1);
  });
});

describe("robustness", () => {
  const PIECES = [
    "Ann: ",
    "[00:00:01] ",
    "Bo Lee (PM): ",
    "WEBVTT",
    "1",
    "00:00:01.000 --> 00:00:02.000",
    "00:00:01,000 --> 00:00:02,000",
    "<v Cy>",
    "</v>",
    "Attendees: ",
    "Ann, Bo",
    "?",
    ".",
    " ",
    "\n",
    "\r\n",
    "\n\n",
    "I'll send it by Friday",
    "can you check, Ann",
    "Sure",
    "we decided",
    "sounds good",
    "{vocalsound}",
    "ünïcødé",
    "😀",
    "-",
    ":",
    "(",
    ")",
  ];
  it("random transcripts never throw and every span stays inside its turn (seed 7)", () => {
    const r = prng(7);
    for (let n = 0; n < 400; n++) {
      const text = Array.from({ length: r.int(1, 40) }, () => r.pick(PIECES)).join("");
      const m = extractMeeting(text, { meetingDate: "2024-02-29" });
      expectSpansInTurns(text, m);
      for (const a of m.attendees) {
        const written = text.slice(a.span.start, a.span.end);
        expect(written).toMatch(/\p{L}/u);
        if (a.source !== "both") expect(written).toBe(a.name);
      }
    }
  });
});

describe("scale", () => {
  it("a 10,000-turn transcript is processed in seconds with every span inside its turn", () => {
    const lines = Array.from(
      { length: 10_000 },
      (_, i) => `Speaker ${i % 7}: Item ${i}: I'll check the numbers by Friday? We decided to ship batch ${i}.`,
    );
    const text = lines.join("\n");
    const started = performance.now();
    const m = extractMeeting(text, { meetingDate: "2024-05-01" });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(m.turns).toHaveLength(10_000);
    expect(m.decisions).toHaveLength(10_000);
    expect(m.attendees).toHaveLength(7);
    expectSpansInTurns(text, m);
  });
});
