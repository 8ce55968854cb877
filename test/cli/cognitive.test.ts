// `smriti cognitive status|process|trace|ablate|tune`: status, process and tune in-process on --data, trace (and the rest) against a running server.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAYER_IDS } from "../../src/contract/cognitive-layers.ts";
import { cliEnv, runCli, runCliHere, runJson, runJsonHere, startServe } from "./cli-helpers.ts";
import { ALL_SCOPES } from "../../src/contract/scopes.ts";

// In this process (runCliHere); a child process (runCli) where the started command and its exit code are the point.
const cli = runCliHere;
const json = runJsonHere;

let data: string;
let notes: string;
beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), "smriti-cog-data-"));
  notes = mkdtempSync(join(tmpdir(), "smriti-cog-notes-"));
  writeFileSync(join(notes, "db.md"), "# DB\n\nAlice Chen picked PostgreSQL in March 2024.\n");
  await json(["ingest", "--data", data, "--json", "db.md"], { cwd: notes });
}, 60_000);
afterAll(() => {
  rmSync(data, { recursive: true, force: true });
  rmSync(notes, { recursive: true, force: true });
});

describe("smriti cognitive (in-process on --data)", () => {
  it("status lists the thirteen layers with switches and counters", async () => {
    const { layers } = await json<{ layers: { id: string; enabled: boolean }[] }>([
      "cognitive",
      "status",
      "--data",
      data,
      "--json",
    ]);
    expect(layers.map((l) => l.id)).toEqual([...LAYER_IDS]);
    const text = await cli(["cognitive", "status", "--data", data]);
    expect(text.stdout).toMatch(/^dhyana\s+off/m);
    expect(text.stdout).toMatch(/^viveka\s+on/m);
  });

  it("process prints trace_id, confidence and decision", async () => {
    const r = await json<{ trace_id: string; confidence: number; decision: string }>([
      "cognitive",
      "process",
      "Who picked PostgreSQL?",
      "--data",
      data,
      "--json",
    ]);
    expect(r).toMatchObject({ trace_id: expect.stringMatching(/^trace_/), decision: "answered" });
    const text = await cli(["cognitive", "process", "Who picked PostgreSQL?", "--data", data]);
    expect(text.stdout).toMatch(/^trace_id\s+trace_/m);
    expect(text.stdout).toMatch(/^confidence\s+0\.\d+/m);
    expect(text.stdout).toMatch(/db\.md/);
  });

  it("trace reads back on --data what an earlier process run stored, and an unknown or bad input exits non-zero with the code", async () => {
    const r = await json<{ trace_id: string; confidence: number }>([
      "cognitive",
      "process",
      "Who picked PostgreSQL?",
      "--data",
      data,
      "--json",
    ]);
    const back = await json<{ trace_id: string; confidence: number; query: string; steps: { layer: string }[] }>([
      "cognitive",
      "trace",
      r.trace_id,
      "--data",
      data,
      "--json",
    ]);
    expect(back).toMatchObject({ trace_id: r.trace_id, confidence: r.confidence, query: "Who picked PostgreSQL?" });
    expect(back.steps.some((s) => s.layer === "manas")).toBe(true);
    const text = await cli(["cognitive", "trace", r.trace_id, "--data", data]);
    expect(text.stdout).toMatch(new RegExp(`^${r.trace_id}\\s+confidence`, "m"));
    const unknown = await runCli(["cognitive", "trace", "trace_00000000-0000-0000-0000-000000000000", "--data", data]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/not_found/);
    const bad = await cli(["cognitive", "process", "x", "-k", "99", "--data", data]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/invalid_request/);
  });
});

describe("smriti cognitive tune (on outcome feedback)", () => {
  it("refuses with too little feedback, then tunes on the reports and records the decisions", async () => {
    const few = await cli(["cognitive", "tune", "--data", data]);
    expect(few.code).toBe(1);
    expect(few.stderr).toMatch(/0 queries with feedback; tuning needs at least 4/);
    const { createRuntime } = await import("../../src/main.ts");
    const { loadConfig } = await import("../../src/config.ts");
    const rt = await createRuntime(loadConfig({}, { data }), { embedder: null, log: () => {} });
    const call = {
      workspaceId: (await rt.store.workspaces.findWorkspace("default"))!.id,
      workspaceName: "default",
      tokenId: "t",
      actorId: null,
      scopes: ALL_SCOPES,
    };
    const [chunk] = await rt.store.documents.documentChunks(call.workspaceId, "db.md");
    for (const query of [
      "who picked PostgreSQL",
      "PostgreSQL in March",
      "which database did Alice pick",
      "Alice Chen database",
    ])
      await rt.handlers.feedback(call, { chunk_hashes: [chunk!.chunkHash], outcome: "used", query });
    await rt.close();
    const r = await json<{ run_id: string; cases: number; decisions: { kept: boolean }[] }>([
      "cognitive",
      "tune",
      "--data",
      data,
      "--workspace",
      "default",
      "--json",
    ]);
    expect(r.cases).toBe(4);
    expect(r.run_id).toMatch(/^feedback-/);
    expect(r.decisions.length).toBeGreaterThan(0);
    const text = await cli(["cognitive", "tune", "--data", data]);
    expect(text.stdout).toMatch(/^4 queries with feedback; held-in/m);
    expect(text.stdout).toMatch(/server uses the tuned parameters from its next start/);
    const { openSqliteStore } = await import("../../src/store/sqlite/index.ts");
    const { tunerDecisions } = await import("../../src/cognitive/records.ts");
    const store = openSqliteStore(join(data, "smriti.db"));
    expect((await tunerDecisions(store.cognitive)).filter((d) => d.run_id === r.run_id)).toHaveLength(
      r.decisions.length,
    );
    await store.close();
    const unknown = await cli(["cognitive", "tune", "--data", data, "--workspace", "nope"]);
    expect([unknown.code, /no workspace 'nope'/.test(unknown.stderr)]).toEqual([1, true]);
  }, 60_000);
});

describe("smriti cognitive ablate", () => {
  it("refuses clearly, writing nothing, when the public eval sets are not there", async () => {
    const r = await cli(["cognitive", "ablate", "--data", data, "--eval-dir", join(notes, "no-such-dir")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/needs the public eval sets .*no-such-dir/);
    const { layers } = await json<{ layers: { uplift: unknown }[] }>(["cognitive", "status", "--data", data, "--json"]);
    expect(layers.every((l) => l.uplift === null)).toBe(true);
  });
});

describe("smriti cognitive --url (a running server)", () => {
  it("process on the server, then trace reads it back; an unknown trace is not_found", async () => {
    const { token } = await json<{ token: string }>(["token", "create", "--data", data, "--json"]);
    const server = await startServe(data);
    try {
      const env = cliEnv({ SMRITI_TOKEN: token });
      const r = await runJson<{ trace_id: string }>(
        ["cognitive", "process", "Who picked PostgreSQL?", "--url", server.url, "--json"],
        { env },
      );
      const t = await json<{ trace_id: string; steps: unknown[] }>(
        ["cognitive", "trace", r.trace_id, "--url", server.url, "--json"],
        { env },
      );
      expect(t.trace_id).toBe(r.trace_id);
      expect(t.steps.length).toBeGreaterThan(0);
      const missing = await runCli(["cognitive", "trace", "trace_nope", "--url", server.url], { env });
      expect([missing.code, missing.stderr.includes("not_found")]).toEqual([1, true]);
      const noToken = await cli(["cognitive", "status", "--url", server.url]);
      expect(noToken.stderr).toMatch(/SMRITI_TOKEN/);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
