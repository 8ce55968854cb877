// Lines that open with a date date what follows them: session headers and turn stamps, not lines that merely hold a year.
import { describe, expect, it } from "vitest";
import { chunkStamp, datedLines } from "../../src/domain/time/dated-lines.ts";
import { frontMatterDate } from "../../src/domain/time/front-matter.ts";

const iso = (ms: number | null | undefined) => (ms == null ? ms : new Date(ms).toISOString());

describe("dated lines", () => {
  it("reads session headers, bracketed and ISO stamps, and leaves other lines with a year alone", () => {
    const doc = [
      "# Chat",
      "## Session 1 — 1:56 pm on 8 May, 2023",
      "Caroline: I moved here in 2019.",
      "[2023-06-09 14:00] Mel: hi",
      "2023-07-01T10:00:00+02:00 Alice: on time",
      "Line 1999 of the log",
      "May 2023 was a good month",
    ].join("\n");
    const stamps = datedLines(doc);
    expect(stamps.map((s) => [doc.slice(s.offset).split("\n")[0], iso(s.at)])).toEqual([
      ["## Session 1 — 1:56 pm on 8 May, 2023", "2023-05-08T13:56:00.000Z"],
      ["[2023-06-09 14:00] Mel: hi", "2023-06-09T14:00:00.000Z"],
      ["2023-07-01T10:00:00+02:00 Alice: on time", "2023-07-01T08:00:00.000Z"],
    ]);
  });

  it("dates a chunk by the last stamp at or before it, else the first inside it", () => {
    const stamps = [
      { offset: 10, at: 1 },
      { offset: 50, at: 2 },
    ];
    expect(chunkStamp(stamps, { start: 0, end: 40 })).toBe(1);
    expect(chunkStamp(stamps, { start: 50, end: 90 })).toBe(2);
    expect(chunkStamp(stamps, { start: 20, end: 60 })).toBe(1);
    expect(chunkStamp(stamps, { start: 0, end: 5 })).toBeUndefined();
  });

  it("reads a front matter date, as UTC when it gives no offset", () => {
    expect(iso(frontMatterDate("---\ntitle: x\ndate: 2024-01-15\n---\nbody"))).toBe("2024-01-15T00:00:00.000Z");
    expect(iso(frontMatterDate("---\ndate: '2024-01-15 09:30'\n---\n"))).toBe("2024-01-15T09:30:00.000Z");
    expect(iso(frontMatterDate("---\ndate: 2024-01-15T09:30:00+02:00\n---\n"))).toBe("2024-01-15T07:30:00.000Z");
    expect(frontMatterDate("date: 2024-01-15\n")).toBeNull();
  });
});
