// Chunking: heading-path anchors, fenced code, line-range anchors, offsets that round-trip, size bounds.
import { describe, expect, it } from "vitest";
import { CHUNK_TARGET_CHARS, chunkDocument, inferKind, type ChunkDraft } from "../../src/domain/text/chunk.ts";
import { contentHash } from "../../src/domain/text/hash.ts";

const sentences = (label: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${label} sentence ${i} explains one more detail about the storage engine.`).join(
    " ",
  );

function expectRoundTrip(content: string, chunks: ChunkDraft[]): void {
  expect(chunks.length).toBeGreaterThan(0);
  let previousEnd = 0;
  for (const c of chunks) {
    expect(c.text).toBe(content.slice(c.start, c.end));
    expect(c.hash).toBe(contentHash(c.text));
    expect(c.start).toBeGreaterThanOrEqual(previousEnd);
    expect(c.text).toBe(c.text.trim());
    previousEnd = c.end;
  }
}

describe("chunkDocument: markdown", () => {
  const md = [
    "# Guide",
    "",
    "Intro about the guide.",
    "",
    "## Install",
    "",
    "Run the installer first.",
    "",
    "```sh",
    "# this is a shell comment, not a heading",
    "make install",
    "",
    "## still inside the fence",
    "```",
    "",
    "### Linux",
    "",
    "Use the package manager.",
    "",
    "## Usage",
    "",
    "Start it with the serve command.",
    "",
  ].join("\n");

  it("anchors chunks with the heading path, resetting deeper levels", () => {
    const chunks = chunkDocument(md, "markdown");
    expectRoundTrip(md, chunks);
    expect(chunks.map((c) => c.anchor)).toEqual([
      "Guide",
      "Guide > Install",
      "Guide > Install > Linux",
      "Guide > Usage",
    ]);
    expect(chunks.find((c) => c.anchor === "Guide > Usage")?.text).toBe("## Usage\n\nStart it with the serve command.");
  });

  it("does not treat '#' lines inside fenced code as headings or split the fence", () => {
    const chunks = chunkDocument(md, "markdown");
    expect(chunks.some((c) => c.anchor.includes("still inside"))).toBe(false);
    expect(chunks.some((c) => c.anchor.includes("shell comment"))).toBe(false);
    const fenced = chunks.filter((c) => c.text.includes("```"));
    expect(fenced).toHaveLength(1);
    expect(fenced[0]!.text).toContain(
      "```sh\n# this is a shell comment, not a heading\nmake install\n\n## still inside the fence\n```",
    );
  });

  it("keeps paragraph boundaries after a closed fence in a long section", () => {
    const doc = `# Notes\n\n${sentences("First", 3)}\n\n\`\`\`sh\n# comment\necho one\n\n# another\necho two\n\`\`\`\n\n${sentences("Second", 5)}\n\n${sentences("Third", 9)}\n\n${sentences("Fourth", 4)}\n`;
    const chunks = chunkDocument(doc, "markdown");
    expectRoundTrip(doc, chunks);
    expect(chunks.length).toBeGreaterThan(1);
    // Merging happens at paragraph granularity, so every chunk starts at the start of a paragraph.
    for (const c of chunks)
      expect(c.text).toMatch(/^(# Notes|First sentence 0|Second sentence 0|Third sentence 0|Fourth sentence 0|```sh)/);
    expect(chunks.filter((c) => c.text.includes("```sh")).every((c) => c.text.includes("echo two\n```"))).toBe(true);
  });

  it("merges a lone heading with the text that follows it", () => {
    const doc = "# Top\n\n## Sub\n\nBody text of the sub-section.\n";
    const chunks = chunkDocument(doc, "markdown");
    expectRoundTrip(doc, chunks);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.anchor).toBe("Top > Sub");
  });

  it("gives text before the first heading a line-range anchor", () => {
    const doc = "Preamble line.\n\n# Heading\n\nBody.\n";
    const chunks = chunkDocument(doc, "markdown");
    expect(chunks[0]!.anchor).toBe("L1-L1");
    expect(chunks[0]!.text).toBe("Preamble line.");
  });
});

describe("chunkDocument: code and text", () => {
  it("anchors code chunks with the 1-based line range they cover", () => {
    const fn = (i: number) =>
      `function handler${i}(input) {\n${Array.from({ length: 12 }, (_, j) => `  const value${j} = compute(input, ${i}, ${j});`).join("\n")}\n  return value0;\n}`;
    const code = Array.from({ length: 8 }, (_, i) => fn(i)).join("\n\n") + "\n";
    const chunks = chunkDocument(code, "code");
    expectRoundTrip(code, chunks);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      const first = code.slice(0, c.start).split("\n").length;
      const last = code.slice(0, c.end - 1).split("\n").length;
      expect(c.anchor).toBe(`L${first}-L${last}`);
      expect(c.text.split("\n")).toHaveLength(last - first + 1);
    }
    expect(chunks[0]!.anchor.startsWith("L1-")).toBe(true);
  });

  it("splits oversize paragraphs into pieces no longer than the target", () => {
    const text = `${sentences("Long", 80)}\n\nShort closing paragraph.\n`;
    const chunks = chunkDocument(text, "text");
    expectRoundTrip(text, chunks);
    expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(text.length / CHUNK_TARGET_CHARS));
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(CHUNK_TARGET_CHARS);
    // Sentence-aware: pieces end at a sentence end, not mid-word.
    for (const c of chunks) expect(c.text).toMatch(/[.]$/);
  });

  it("splits a single word-free run longer than the target", () => {
    const text = "x".repeat(CHUNK_TARGET_CHARS * 3 + 7);
    const chunks = chunkDocument(text, "text");
    expectRoundTrip(text, chunks);
    expect(chunks.map((c) => c.text).join("")).toBe(text);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(CHUNK_TARGET_CHARS);
  });

  it("round-trips offsets for CRLF content and never exceeds the target on mixed documents", () => {
    const doc = `# A\r\n\r\n${sentences("Alpha", 30)}\r\n\r\n## B\r\n\r\nShort.\r\n\r\n${sentences("Beta", 5)}\r\n`;
    for (const kind of ["markdown", "text", "code"] as const) {
      const chunks = chunkDocument(doc, kind);
      expectRoundTrip(doc, chunks);
      for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(CHUNK_TARGET_CHARS);
    }
  });

  it("returns no chunks for blank content", () => {
    expect(chunkDocument("  \n\n \t\n", "text")).toEqual([]);
  });

  it("infers the kind from the extension", () => {
    expect(inferKind("notes/a.md")).toBe("markdown");
    expect(inferKind("src/x.ts")).toBe("code");
    expect(inferKind("transcripts/call.txt")).toBe("text");
    expect(inferKind("README")).toBe("text");
  });
});
