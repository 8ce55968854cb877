// The inspection routes are advisory: calling every one of them (process included) changes no table and no learned tally.
import { afterEach, expect, it } from "vitest";
import { LAYER_IDS } from "../../src/contract/cognitive-layers.ts";
import { openDbReader, type DbReader } from "../helpers/db-reader.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

let s: TestService;
afterEach(async () => s.cleanup());

const TABLES = ["documents", "chunks", "events", "records", "cognitive_counters", "cognitive_records", "workspaces"];

// Some tables are WITHOUT ROWID: rows compare as a sorted list of their JSON.
const rows = async (db: DbReader, table: string) =>
  (await db.all(`SELECT * FROM ${table}`)).map((r) => JSON.stringify(r)).sort();

/** Every row of the memory, audit and cognitive tables, read through a second connection, plus the in-memory state. */
async function snapshot(svc: TestService) {
  const db = await openDbReader(svc.config);
  try {
    const tables = Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await rows(db, t)])));
    const { cognitive } = svc.runtime;
    return {
      tables,
      karma: cognitive.karma.summary(),
      chitta: cognitive.impressions.summary(),
      counters: await cognitive.pipeline.counters.totals(),
      config: JSON.stringify(cognitive.pipeline.current),
    };
  } finally {
    await db.close();
  }
}

it("no inspection route mutates memory, goals, counters or learned state", async () => {
  s = await startTestService({ actors: ["alice"] });
  s.runtime.cognitive.pipeline.configure({
    ...s.runtime.cognitive.pipeline.current,
    enabled: Object.fromEntries(LAYER_IDS.map((id) => [id, true])) as Record<(typeof LAYER_IDS)[number], boolean>,
  });
  const doc =
    "# Plan\n\n- [ ] TODO migrate the billing database to PostgreSQL\n\nAlice Chen picked PostgreSQL in March 2024.\n";
  expect((await s.post("/v1/memory/ingest", { source_path: "plan.md", content: doc })).status).toBe(200);
  expect(
    (
      await s.post(
        "/v1/memory/recall",
        { query: "what is still to do about the database?" },
        { "x-svc-actor-id": "alice" },
      )
    ).status,
  ).toBe(200);
  const hash = (await s.runtime.store.documents.documentChunks(s.workspaceId, "plan.md"))[0]!.chunkHash;
  s.runtime.cognitive.karma.record(s.workspaceId, [hash], true);
  await s.runtime.cognitive.pipeline.counters.flush();
  const before = await snapshot(s);
  expect(before.tables.cognitive_counters!.length).toBeGreaterThan(0);
  expect(Object.keys(before.chitta)).toEqual([s.workspaceId]);

  const processed = await s.post(
    "/sdk/cognitive/process",
    { query: "What is left to do with my database?", k: 5 },
    { "x-svc-actor-id": "alice" },
  );
  expect(processed.status).toBe(200);
  const { trace_id } = (await processed.json()) as { trace_id: string };
  const paths = [
    "health",
    "snapshot",
    "layers",
    ...LAYER_IDS.map((id) => `layers/${id}`),
    "state",
    "goals",
    "karma",
    "chitta",
    "identity",
    "functional-state",
    `traces/${trace_id}`,
  ];
  for (const p of paths)
    expect((await s.get(`/sdk/cognitive/${p}`, {}, { "x-svc-actor-id": "alice" })).status, p).toBe(200);

  expect(await snapshot(s)).toEqual(before);
});
