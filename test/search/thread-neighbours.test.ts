// Conversation structure: which chunks are a chunk's thread neighbours, and that hybrid recall lifts the reply to a
// matching turn even when the reply shares no word with the query.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { loadGloveEmbedder } from "../../src/embed/glove.ts";
import { createRuntime } from "../../src/main.ts";
import { WorkspaceIndex } from "../../src/search/workspace-index.ts";
import { turnChunk } from "./turn-chunk.ts";

const HOUR = 3600_000;
const chunk = turnChunk;

describe("WorkspaceIndex.threadNeighbours", () => {
  it("pairs one-chunk documents written one after another in one path folder within the window", () => {
    const index = new WorkspaceIndex();
    index.add(chunk(1, "chat/t1", 0));
    index.add(chunk(2, "chat/t2", HOUR));
    index.add(chunk(3, "chat/t3", 30 * HOUR)); // a later session
    index.add(chunk(4, "notes/a", 30 * HOUR)); // another folder
    index.add(chunk(5, "chat/deep/t5", 30 * HOUR)); // a subfolder is another conversation
    index.add(chunk(6, "t6", 30 * HOUR)); // no folder
    index.add(chunk(7, "t7", 30 * HOUR));
    expect(index.threadNeighbours(1, 6 * HOUR)).toEqual([2]);
    expect(index.threadNeighbours(2, 6 * HOUR)).toEqual([1]);
    expect(index.threadNeighbours(3, 6 * HOUR)).toEqual([]);
    expect(index.threadNeighbours(5, 6 * HOUR)).toEqual([]);
    expect(index.threadNeighbours(6, 6 * HOUR)).toEqual([]);
    expect(index.threadNeighbours(99, 6 * HOUR)).toEqual([]);
  });

  it("leaves out chunks of documents with more than one chunk (a file's next section is not a reply)", () => {
    const index = new WorkspaceIndex();
    index.add(chunk(1, "chat/t1", 0));
    index.add(chunk(2, "chat/long", 0));
    index.add(chunk(3, "chat/long", 0));
    index.add(chunk(4, "chat/t4", 0));
    index.add(chunk(5, "chat/t5", 0));
    expect(index.threadNeighbours(1, HOUR)).toEqual([]);
    expect(index.threadNeighbours(2, HOUR)).toEqual([]);
    expect(index.threadNeighbours(3, HOUR)).toEqual([]);
    expect(index.threadNeighbours(4, HOUR)).toEqual([5]);
  });

  it("pairs only chunks that read as turns (a speaker or role label), not paragraphs imported together", () => {
    const index = new WorkspaceIndex();
    index.add(chunk(1, "article/p1.txt", 0, "The Normans were the people who in the 10th and 11th centuries..."));
    index.add(chunk(2, "article/p2.txt", 0, "In the course of the 10th century, the initially destructive..."));
    index.add(chunk(3, "chat/1", 0, "[00:01:02] Bob Lee: shall we start?"));
    index.add(chunk(4, "chat/2", 0, "user: what did we decide?"));
    index.add(chunk(5, "chat/3", 0, "Decision: ship on Friday")); // a note's section label, not a speaker
    expect(index.threadNeighbours(1, HOUR)).toEqual([]);
    expect(index.threadNeighbours(2, HOUR)).toEqual([]);
    expect(index.threadNeighbours(3, HOUR)).toEqual([4]);
    expect(index.threadNeighbours(4, HOUR)).toEqual([3]);
    expect(index.threadNeighbours(5, HOUR)).toEqual([]);
  });

  it("keeps which chunks are turns through a saved snapshot", () => {
    const index = new WorkspaceIndex();
    index.add(chunk(1, "chat/1", 0));
    index.add(chunk(2, "chat/2", 0));
    index.add(chunk(3, "chat/3", 0, "A paragraph of notes."));
    const { header, arrays } = index.toPacked();
    const read = WorkspaceIndex.fromPacked({ header, arrays });
    expect(read.threadNeighbours(2, HOUR)).toEqual([1]);
    expect(read.threadNeighbours(3, HOUR)).toEqual([]);
  });

  it("follows write order (ids), not the path order a reload from the rows adds them in", () => {
    const index = new WorkspaceIndex();
    const ids = Array.from({ length: 12 }, (_, i) => i + 1);
    for (const id of [...ids].sort((a, b) => `${a}`.localeCompare(`${b}`))) index.add(chunk(id, `chat/t${id}`, 0));
    expect(index.threadNeighbours(1, HOUR)).toEqual([2]);
    expect(index.threadNeighbours(9, HOUR)).toEqual([8, 10]);
    expect(index.threadNeighbours(10, HOUR)).toEqual([9, 11]);
  });

  it("skips ids of another workspace's chunks written in between", () => {
    const index = new WorkspaceIndex();
    index.add(chunk(1, "chat/t1", 0));
    index.add(chunk(4, "chat/t4", 0)); // 2 and 3 went to another workspace
    expect(index.threadNeighbours(1, HOUR)).toEqual([4]);
  });

  it("skips removed chunks between two turns", () => {
    const index = new WorkspaceIndex();
    [1, 2, 3].forEach((id) => index.add(chunk(id, `chat/t${id}`, 0)));
    index.remove(2);
    expect(index.threadNeighbours(1, HOUR)).toEqual([3]);
    expect(index.threadNeighbours(3, HOUR)).toEqual([1]);
  });
});

describe("hybrid recall with thread neighbours", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("finds the reply beside the turn that matches the query, and only in hybrid mode", async () => {
    const data = mkdtempSync(join(tmpdir(), "smriti-threads-"));
    dirs.push(data);
    const rt = await createRuntime(loadConfig({}, { data }), { embedder: await loadGloveEmbedder(), log: () => {} });
    const ws = (await rt.store.workspaces.findWorkspace("default"))!.id;
    const turns = [
      "Melanie: How was the support group meeting yesterday?",
      "Caroline: It was wonderful, everyone shared their stories and I felt accepted.",
      "Melanie: I painted a sunrise over the lake last week.",
      "Caroline: Quarterly filings are due at the end of the month.",
    ];
    for (const [i, content] of turns.entries())
      await rt.ingest.ingest(ws, { source_path: `conv/${i + 1}`, content, timestamp: "2023-05-08T13:56:00Z" });
    const hybrid = await rt.memory.recall(ws, { query: "support group meeting", k: 5 });
    const lexical = await rt.memory.recall(ws, { query: "support group meeting", k: 5, mode: "lexical" });
    await rt.close();
    expect(hybrid.hits.slice(0, 2).map((h) => h.source_path)).toEqual(["conv/1", "conv/2"]);
    expect(lexical.hits.map((h) => h.source_path)).toEqual(["conv/1"]);
  });
});
