// GET /v1/cognitive/uplift, /metrics' layer counters and POST /v1/memory/feedback: the same persisted figures, scoped by workspace, surviving restarts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import type { UpliftResponse } from "../../src/contract/uplift.ts";
import { createRuntime } from "../../src/main.ts";
import { createHttpApp } from "../../src/transports/http/app.ts";

const dir = mkdtempSync(join(tmpdir(), "smriti-uplift-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A runtime on the shared data directory with a token; the directory outlives it, as a restart would. */
async function boot(workspace = "default") {
  const rt = await createRuntime(loadConfig({ SVC_MULTI_TENANT: "1" }, { data: dir }), {
    embedder: null,
    log: () => {},
  });
  const app = createHttpApp(rt);
  const auth = { authorization: `Bearer ${(await rt.auth.issue({ workspace, actors: [] })).token}` };
  const post = async (path: string, body: unknown) =>
    app.request(path, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const get = async (path: string) => app.request(path, { headers: auth });
  return { rt, app, post, get };
}

const NOTES = [
  "# Deploys\n\nWe deploy the billing service every Tuesday after the change review.\n",
  "# Deploys copy\n\nWe deploy the billing service every Tuesday after the change review.\n",
  "# Oncall\n\nThe on-call engineer carries the pager for one week at a time.\n",
];

const counter = (u: UpliftResponse, layer: string, name: string) =>
  u.layers.find((l) => l.id === layer)?.counters[name] ?? 0;
const metric = (text: string, layer: string, name: string) => {
  const line = text
    .split("\n")
    .find(
      (l) =>
        l.startsWith("smriti_cognitive_layer_events_total{") &&
        l.includes(`layer="${layer}"`) &&
        l.includes(`counter="${name}"`),
    );
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
};

describe("uplift, metrics and feedback", () => {
  it("serves the layers' counters for the caller's workspace, equal to /metrics, and keeps them across a restart", async () => {
    const one = await boot();
    for (const [i, content] of NOTES.entries())
      expect((await one.post("/v1/memory/ingest", { source_path: `n${i}.md`, content })).status).toBe(200);
    for (let i = 0; i < 3; i++)
      expect((await one.post("/v1/memory/recall", { query: "when do we deploy billing" })).status).toBe(200);
    const res = await one.get("/v1/cognitive/uplift?since=1h");
    expect(res.status).toBe(200);
    const u = (await res.json()) as UpliftResponse;
    expect(u.layers.map((l) => l.id)).toHaveLength(13);
    const counted = u.layers
      .flatMap((l) => Object.entries(l.counters).map(([name, n]) => ({ layer: l.id, name, n })))
      .filter((c) => c.n > 0);
    expect(counted.length).toBeGreaterThan(0);
    expect(Object.keys(u.by_workspace)).toEqual(["default"]);
    const metrics = await (await one.app.request("/metrics")).text();
    for (const c of counted) expect(metric(metrics, c.layer, c.name), `${c.layer}.${c.name}`).toBe(c.n);
    await one.rt.close();

    const two = await boot();
    const after = (await (await two.get("/v1/cognitive/uplift")).json()) as UpliftResponse;
    for (const c of counted) expect(counter(after, c.layer, c.name), `${c.layer}.${c.name} after restart`).toBe(c.n);
    const other = await boot("elsewhere");
    const theirs = (await (await other.get("/v1/cognitive/uplift")).json()) as UpliftResponse;
    expect(theirs.layers.every((l) => Object.keys(l.counters).length === 0)).toBe(true);
    expect(theirs.by_workspace).toEqual({});
    await other.rt.close();
    await two.rt.close();
  });

  it("refuses bad durations and unknown parameters with 400", async () => {
    const s = await boot();
    for (const q of ["since=banana", "since=7", "since=-1d", "since=7d&limit=99999999"]) {
      const res = await s.get(`/v1/cognitive/uplift?${q}`);
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    }
    await s.rt.close();
  });

  it("feedback moves a used passage up for later recalls, is audited, refuses unknown hashes, and survives a restart", async () => {
    const s = await boot("feedback");
    await s.post("/v1/memory/ingest", {
      source_path: "a.md",
      content: "# Pager\n\nThe pager rotation changes every Monday at nine.\n",
    });
    await s.post("/v1/memory/ingest", {
      source_path: "b.md",
      content: "# Handover\n\nOn-call handover: the pager moves to the next engineer each week.\n",
    });
    const recall = async (x = s) =>
      (
        (await (await x.post("/v1/memory/recall", { query: "when does the pager rotation change", k: 2 })).json()) as {
          hits: { source_path: string; chunk_hash: string; score: number }[];
        }
      ).hits;
    const before = await recall();
    const loser = before[1]!;
    const bad = await s.post("/v1/memory/feedback", { chunk_hashes: [`sha256:${"0".repeat(64)}`], outcome: "used" });
    expect(bad.status).toBe(422);
    const noSuchAnswer = await s.post("/v1/memory/feedback", {
      chunk_hashes: [loser.chunk_hash],
      outcome: "used",
      trajectory_id: "traj_nope",
    });
    expect([noSuchAnswer.status, ((await noSuchAnswer.json()) as { error: { code: string } }).error.code]).toEqual([
      404,
      "not_found",
    ]);
    for (let i = 0; i < 3; i++)
      expect((await s.post("/v1/memory/feedback", { chunk_hashes: [loser.chunk_hash], outcome: "used" })).status).toBe(
        200,
      );
    const after = await recall();
    const raised = after.find((h) => h.chunk_hash === loser.chunk_hash)!;
    expect(raised.score).toBeGreaterThan(loser.score);
    const log = (await (await s.get("/v1/audit/event_log?type=memory.feedback")).json()) as { events: unknown[] };
    expect(log.events).toHaveLength(3);
    const u = (await (await s.get("/v1/cognitive/uplift")).json()) as UpliftResponse;
    expect(counter(u, "karma", "chunks_boosted_feedback")).toBeGreaterThan(0);
    await s.rt.close();
    const again = await boot("feedback");
    expect((await recall(again)).find((h) => h.chunk_hash === loser.chunk_hash)?.score).toBe(raised.score);
    await again.rt.close();
  });
});
