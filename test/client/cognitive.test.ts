// The cognitive client calls against a real server on an ephemeral port, and the same calls through the in-process local client.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, SmritiError, type SmritiClient } from "../../src/client/index.ts";
import { createLocalClient, type LocalClient } from "../../src/local-client.ts";
import { LAYER_IDS } from "../../src/contract/cognitive-layers.ts";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

const NOTE =
  "# Lighthouse\n\nThe Varenholm lighthouse was designed by Ingrid Solberg.\n\n- [ ] TODO repaint the lantern room\n";

const ALIASES = [
  ["processCognitive", "process_cognitive"],
  ["cognitiveLayers", "cognitive_layers"],
  ["cognitiveLayerState", "cognitive_layer_state"],
  ["cognitiveStackState", "cognitive_stack_state"],
  ["cognitiveGoals", "cognitive_goals"],
  ["cognitiveKarma", "cognitive_karma"],
  ["cognitiveChitta", "cognitive_chitta"],
  ["cognitiveIdentity", "cognitive_identity"],
  ["cognitiveFunctionalState", "cognitive_functional_state"],
  ["cognitiveHealth", "cognitive_health"],
  ["cognitiveSnapshot", "cognitive_snapshot"],
  ["cognitiveTrace", "cognitive_trace"],
] as const satisfies readonly (readonly [keyof SmritiClient, keyof SmritiClient])[];

/** The same checks for both clients: behaviour must not depend on the transport. */
async function exercise(client: SmritiClient, actor: string | null) {
  await client.ingest({ source_path: "lighthouse.md", content: NOTE });
  const processed = await client.process_cognitive("Who designed the Varenholm lighthouse?", { k: 3 });
  expect(processed.trace_id).toMatch(/^trace_/);
  expect(processed.confidence).toBeGreaterThan(0);
  expect(processed.evidence[0]?.source_path).toBe("lighthouse.md");
  expect(await client.cognitive_trace(processed.trace_id)).toEqual(processed);
  expect((await client.cognitive_layers()).layers.map((l) => l.id)).toEqual([...LAYER_IDS]);
  expect(await client.cognitive_layer_state("viveka")).toMatchObject({
    id: "viveka",
    enabled: true,
    params: { injectionPenalty: 3 },
  });
  expect((await client.cognitive_stack_state(5)).enabled.dhyana).toBe(false);
  expect((await client.cognitive_goals()).open_loops.map((l) => l.text)).toEqual([
    "- [ ] TODO repaint the lantern room",
  ]);
  expect((await client.cognitive_karma()).ledger).toEqual({ chunks: 0, total: 0 });
  expect((await client.cognitive_chitta()).layer).toBe("chitta");
  expect((await client.cognitive_identity()).actor_id).toBe(actor);
  expect((await client.cognitive_functional_state()).disabled_layers).toEqual(["dhyana", "chitta"]);
  expect((await client.cognitive_health()).status).toBe("ok");
  expect((await client.cognitive_snapshot()).layers).toHaveLength(13);
  const unknown = await client.cognitive_layer_state("ego" as "viveka").catch((e: unknown) => e);
  expect(unknown).toBeInstanceOf(SmritiError);
  expect(unknown).toMatchObject({ status: 404, code: "not_found", details: { valid_layer_ids: [...LAYER_IDS] } });
  await expect(client.cognitive_stack_state(500)).rejects.toMatchObject({ status: 400, code: "invalid_request" });
  await expect(client.cognitive_trace("trace_nope")).rejects.toMatchObject({ status: 404, code: "not_found" });
  // The camelCase names the README documented first stay as aliases of the same calls.
  for (const [alias, name] of ALIASES) expect(client[alias]).toBe(client[name]);
}

describe("cognitive calls over HTTP", () => {
  let svc: TestService;
  let server: RunningServer;
  beforeAll(async () => {
    svc = await startTestService({ actors: ["planner"] });
    server = await listen(svc.app, "127.0.0.1", 0);
  });
  afterAll(async () => {
    await server.close();
    await svc.cleanup();
  });

  it("process_cognitive, cognitive_layers, cognitive_layer_state, cognitive_stack_state, goals, karma, chitta, identity, functional state, trace", async () => {
    await exercise(createClient({ baseUrl: server.url, token: svc.token, actorId: "planner" }), "planner");
  });

  it("a bad token is a 401 SmritiError", async () => {
    await expect(createClient({ baseUrl: server.url, token: "nope" }).cognitiveLayers()).rejects.toMatchObject({
      status: 401,
      code: "unauthorized",
    });
  });
});

describe("createLocalClient", () => {
  let dir: string;
  let local: LocalClient;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "smriti-local-"));
    local = await createLocalClient({ dataDir: dir, embedder: null, actorId: "planner" });
  });
  afterAll(async () => {
    await local.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the same calls in-process, on the given data directory, issuing no token", async () => {
    await exercise(local, "planner");
    expect(await local.runtime.store.workspaces.findWorkspace("default")).toBeTruthy();
    expect(
      await local.runtime.store.workspaces.listTokens(
        (await local.runtime.store.workspaces.findWorkspace("default"))!.id,
      ),
    ).toEqual([]);
  });

  it("honours dbPath and the memory store it opens there", async () => {
    const other = await createLocalClient({ dataDir: dir, dbPath: join(dir, "other.db"), embedder: null });
    try {
      expect((await other.recall({ query: "lighthouse" })).hits).toEqual([]);
      expect(other.runtime.store).not.toBe(local.runtime.store);
      // Not closed: closing would close the store it borrows, which `other` owns.
      const shared = await createLocalClient({ memoryStore: other.runtime.store, embedder: null });
      await shared.ingest({ source_path: "x.md", content: "# X\n\nThe Varenholm lighthouse keeper.\n" });
      expect((await other.recall({ query: "keeper" })).hits[0]?.source_path).toBe("x.md");
    } finally {
      await other.close();
    }
  });
});
