// Who said it: the speaker a turn's label names, kept by the index, and hybrid recall lifting the turns of the speaker
// a question names above the other speaker's turns that mention the name.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { turnSpeaker } from "../../src/domain/meetings/speaker-label.ts";
import { loadGloveEmbedder } from "../../src/embed/glove.ts";
import { createRuntime } from "../../src/main.ts";
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import { WorkspaceIndex } from "../../src/search/workspace-index.ts";
import { turnChunk } from "./turn-chunk.ts";

const HOUR = 3600_000;
const chunk = (id: number, sourcePath: string, opening: string) => turnChunk(id, sourcePath, 0, opening);

describe("turnSpeaker", () => {
  it("reads the name a label gives, an unnamed turn as empty, and anything else as no turn", () => {
    expect(turnSpeaker("Bob Lee: shall we start?")).toBe("Bob Lee");
    expect(turnSpeaker("[00:01:02] Carol: yes")).toBe("Carol");
    expect(turnSpeaker("<v Dan>hello")).toBe("Dan");
    expect(turnSpeaker("user: what did we decide?")).toBe("");
    expect(turnSpeaker("[00:01:02] and then we left")).toBe("");
    expect(turnSpeaker("Decision: ship on Friday")).toBeNull();
    expect(turnSpeaker("The Normans were a people.")).toBeNull();
  });
});

describe("WorkspaceIndex.speakerOf", () => {
  it("names the speaker of a conversation's turns as a query term, and nobody for other chunks", () => {
    const index = new WorkspaceIndex();
    index.add(chunk(1, "chat/1", "Bob Lee: shall we start?"));
    index.add(chunk(2, "chat/2", "user: go ahead"));
    index.add(chunk(3, "chat/3", "Ann: fine"));
    index.add(chunk(4, "vitamin.txt", "Vitamin D: a review of deficiency")); // a title, in no conversation
    expect(index.speakerOf(1, HOUR)).toBe("bob");
    expect(index.speakerOf(2, HOUR)).toBeNull();
    expect(index.speakerOf(3, HOUR)).toBe("ann");
    expect(index.speakerOf(4, HOUR)).toBeNull();
    expect(index.speakerOf(99, HOUR)).toBeNull();
  });

  it("keeps the speakers through a saved snapshot, and rejects a speaker number the snapshot does not hold", () => {
    const index = new WorkspaceIndex();
    index.add(chunk(1, "chat/1", "Bob: hi"));
    index.add(chunk(2, "chat/2", "Ann: hello"));
    index.add(chunk(3, "chat/3", "Bob: how are you?"));
    const read = WorkspaceIndex.fromPacked(index.toPacked());
    expect([1, 2, 3].map((id) => read.speakerOf(id, HOUR))).toEqual(["bob", "ann", "bob"]);
    const broken = index.toPacked();
    (broken.arrays["meta.turn"] as Int32Array)[0] = 9;
    expect(() => WorkspaceIndex.fromPacked(broken)).toThrow(/disagree/);
  });
});

describe("hybrid recall with a named speaker", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("ranks the named speaker's own turn above the other speaker's turn that mentions the name", async () => {
    const turns = [
      "Tim: Hey John, have you read any good books lately?",
      "John: I finished reading Dune last week, what a book.",
      "Tim: Nice. I am training for a marathon.",
    ];
    const top = async (speakers: { weight: number } | undefined) => {
      const data = mkdtempSync(join(tmpdir(), "smriti-speakers-"));
      dirs.push(data);
      const rt = await createRuntime(loadConfig({}, { data }), {
        embedder: await loadGloveEmbedder(),
        log: () => {},
        retrieval: { ...defaultRetrievalConfig, speakers },
      });
      const ws = (await rt.store.workspaces.findWorkspace("default"))!.id;
      for (const [i, content] of turns.entries())
        await rt.ingest.ingest(ws, { source_path: `conv/${i + 1}`, content, timestamp: "2023-05-08T13:56:00Z" });
      const res = await rt.memory.recall(ws, { query: "What books has John read?", k: 3, explain: true });
      await rt.close();
      return { first: res.hits[0]?.source_path, speaker: res.explain?.[0]?.contributions["speaker"] };
    };
    expect(await top(undefined)).toEqual({ first: "conv/1", speaker: undefined });
    expect(await top({ weight: 1 })).toEqual({ first: "conv/2", speaker: 1 });
  });
});
