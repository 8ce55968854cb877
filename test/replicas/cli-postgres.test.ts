// The `smriti` CLI on PostgreSQL (SMRITI_DATABASE_URL): the one-shot commands read and write the database, not a data
// directory, so a command run from anywhere sees what a replica serves.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IngestSummary } from "../../src/cli/ingest.ts";
import { cliEnv, runCli, runJson, runJsonHere, startServe, type RunningServe } from "../cli/cli-helpers.ts";
import { freshSchemaUrl } from "../helpers/postgres.ts";

const root = mkdtempSync(join(tmpdir(), "smriti-cli-pg-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("smriti CLI on PostgreSQL", { timeout: 120_000 }, () => {
  let env: NodeJS.ProcessEnv;
  let server: RunningServe;
  // Each command runs in its own empty directory: nothing may come from a data directory.
  const elsewhere = () => mkdtempSync(join(root, "cwd-"));
  // In this process (runCliHere); ingest, forget, revoke and status as child processes, as typed.
  const cli = <T>(...args: string[]) => runJsonHere<T>([...args, "--json"], { cwd: elsewhere(), env });

  beforeAll(async () => {
    env = cliEnv({ SMRITI_DATABASE_URL: await freshSchemaUrl() });
    delete env["SMRITI_DATA_DIR"];
    mkdirSync(join(root, "notes"));
    writeFileSync(join(root, "notes", "guide.md"), "# Guide\n\nThe quasarbloom protocol keeps replicas in step.\n");
    server = await startServe(join(root, "serve-data"), env);
  });
  afterAll(() => server?.stop());

  it("ingests, recalls, forgets, manages tokens and verifies the audit log against the database", async () => {
    const ingested = await runJson<IngestSummary>(["ingest", "notes", "--json"], { cwd: root, env });
    expect(ingested.ingested.map((r) => r.source_path)).toEqual(["notes/guide.md"]);
    const created = await cli<{ token: string; token_id: string }>("token", "create");
    // The running replica serves what the CLI wrote, with the token the CLI made.
    const recall = await fetch(`${server.url}/v1/memory/recall`, {
      method: "POST",
      headers: { authorization: `Bearer ${created.token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "quasarbloom", mode: "lexical" }),
    });
    expect(((await recall.json()) as { hits: { source_path: string }[] }).hits.map((h) => h.source_path)).toEqual([
      "notes/guide.md",
    ]);
    expect((await cli<{ hits: unknown[] }>("recall", "quasarbloom", "--mode", "lexical")).hits).toHaveLength(1);
    expect((await cli<{ token_id: string }[]>("token", "list")).map((t) => t.token_id)).toContain(created.token_id);
    expect((await runCli(["forget", "notes/guide.md"], { cwd: elsewhere(), env })).code).toBe(0);
    expect((await cli<{ hits: unknown[] }>("recall", "quasarbloom", "--mode", "lexical")).hits).toEqual([]);
    const [verified] = await cli<{ events: number; break: unknown }[]>("audit", "verify");
    expect(verified).toMatchObject({ events: 2, break: null });
    expect((await runCli(["token", "revoke", created.token_id], { cwd: elsewhere(), env })).code).toBe(0);
    // The replica cached the token on its first use and re-reads it within TOKEN_RECHECK_MS (1 s) of the revocation.
    const recallStatus = async () =>
      (
        await fetch(`${server.url}/v1/memory/recall`, {
          method: "POST",
          headers: { authorization: `Bearer ${created.token}`, "content-type": "application/json" },
          body: "{}",
        })
      ).status;
    await expect.poll(recallStatus).toBe(401);
  });

  it("reads the cognitive status and proposals from the database", async () => {
    expect((await runCli(["cognitive", "status"], { cwd: elsewhere(), env })).code).toBe(0);
    expect(await cli<unknown[]>("proposals", "list")).toEqual(expect.any(Array));
  });
});
