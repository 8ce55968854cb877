// createLocalClient forwards a language-model provider and a policy catalog to the runtime it builds, and refuses a
// decision store other than the memory store (a decision's record, audit event and document share one transaction).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAiProvider } from "../../src/llm/openai.ts";
import { createLocalClient, type LocalClient } from "../../src/local-client.ts";
import { say, startChatServer, type ChatServer } from "../helpers/chat-server.ts";

const NOTE = "# Lighthouse\n\nThe Varenholm lighthouse was designed by Ingrid Solberg.\n";
const collect = async <T>(events: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const e of events) out.push(e);
  return out;
};

let dir: string;
let wire: ChatServer;
let local: LocalClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "smriti-local-deps-"));
  wire = await startChatServer();
  local = await createLocalClient({
    dataDir: dir,
    embedder: null,
    llmProvider: createOpenAiProvider({ baseUrl: wire.base, model: "house-model" }),
    policyCatalog: { "no-answers": { tools: { service_grounded_answer: "deny" } } },
  });
  await local.ingest({ source_path: "lighthouse.md", content: NOTE });
});
afterAll(async () => {
  await local.close();
  await wire.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("createLocalClient dependencies", () => {
  it("llmProvider: a session's default provider, its model and its words", async () => {
    wire.script(say("The lighthouse ", "was designed by Ingrid Solberg."));
    const session = await local.createChatSession({});
    expect(session).toMatchObject({ provider: "openai", model: "house-model" });
    const events = await collect(local.sendMessage(session.session_id, "Who designed the lighthouse?"));
    expect(events.find((e) => e.event === "response")?.data).toMatchObject({
      text: "The lighthouse was designed by Ingrid Solberg.",
    });
    expect(wire.requests.at(-1)?.model).toBe("house-model");
    // Extractive stays available after it.
    expect(await local.createChatSession({ provider: "extractive" })).toMatchObject({ provider: "extractive" });
  });

  it("policyCatalog: a policy_path names a catalog entry, which then governs the session's tools", async () => {
    await expect(local.createChatSession({ policy_path: "absent" })).rejects.toMatchObject({
      status: 400,
      code: "invalid_request",
    });
    const session = await local.createChatSession({ provider: "extractive", policy_path: "no-answers" });
    const events = await collect(local.sendMessage(session.session_id, "Who designed the Varenholm lighthouse?"));
    const denied = events
      .filter((e) => e.event === "policy_decision")
      .map((e) => e.data as { subject: string; outcome: string; source: string; policy_path: string });
    expect(denied).toContainEqual(
      expect.objectContaining({
        subject: "service_grounded_answer",
        outcome: "deny",
        source: "policy",
        policy_path: "no-answers",
      }),
    );
  });

  it("refuses a catalog entry that is not a policy, and a decision store apart from the memory store", async () => {
    await expect(
      createLocalClient({ dataDir: dir, embedder: null, policyCatalog: { bad: { tools: { x: "maybe" } } } }),
    ).rejects.toThrow(/policy catalog entry 'bad'/);
    await expect(
      createLocalClient({ dataDir: dir, embedder: null, decisionStore: local.runtime.store }),
    ).rejects.toThrow(/decisionStore must be the memoryStore/);
    // The memory store itself is accepted as the decision store (not closed: it belongs to `local`).
    const same = await createLocalClient({
      memoryStore: local.runtime.store,
      decisionStore: local.runtime.store,
      embedder: null,
    });
    const recorded = await same.recordDecision({
      title: "Keep the lamp lit",
      decision: "The lamp stays lit all night.",
    });
    expect((await local.getDecision(recorded.ref)).title).toBe("Keep the lamp lit");
  });
});
