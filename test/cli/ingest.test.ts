// The real CLI end to end: `ingest` over a tree with ignores and binaries, `recall`, `forget`, and `token` beside a running server.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IngestSummary } from "../../src/cli/ingest.ts";
import { cliEnv, runCli, runCliHere, runJson, runJsonHere, startServe, type RunningServe } from "./cli-helpers.ts";

interface Hit {
  chunk_hash: string;
  source_path: string;
  anchor: string;
  text_span: string;
}

let root: string;
let work: string;
let data: string;

const write = (rel: string, content: string | Buffer) => {
  const file = join(work, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
};
// In this process (runCliHere); a child process (runCli) where start-up, exit, a TTY or stdin are what is shown.
const ingest = (...args: string[]) =>
  runJsonHere<IngestSummary>(["ingest", ...args, "--json", "--data", data], { cwd: work });
const recall = (query: string) =>
  runJsonHere<{ hits: Hit[] }>(["recall", query, "--json", "--mode", "lexical", "--data", data], { cwd: work });
const names = (rows: { source_path: string }[]) => rows.map((r) => r.source_path).sort();

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "smriti-cli-"));
  work = join(root, "work");
  data = join(root, "data");
  write(".gitignore", "build/\n*.secret\n");
  write(".smritiignore", "drafts/\n");
  write(
    "notes/guide.md",
    "# Guide\n\nThe zephyrquartz protocol keeps replicas in step.\n\n## Details\n\nNothing else to see here.\n",
  );
  write("src/app.ts", "// entry\nexport function flumberwick(): number {\n  return 42;\n}\n");
  write("src/.gitignore", "local.txt\n");
  write("src/local.txt", "nested-ignored gobbledyquark\n");
  write("build/out.md", "# Built\n\nbuildonlyterm output\n");
  write("creds.secret", "password hunter2 secretterm\n");
  write("drafts/d.md", "draftonlyterm\n");
  write("node_modules/pkg/readme.md", "modulesonlyterm\n");
  write(".env", "DOTENV_SECRET=envonlyterm\n");
  write(
    "image.png",
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]),
  );
  write("huge.txt", "a".repeat(4_000_001));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

// Each CLI run in a child process is a fresh Node process (~1-2 s of start-up), hence the generous timeouts.
describe("smriti ingest", { timeout: 120_000 }, () => {
  it("ingests text files, honouring ignores and skipping binary and oversized files", async () => {
    const s = await ingest(".");
    expect(names(s.ingested)).toEqual(["notes/guide.md", "src/app.ts"]);
    expect(s.counts).toMatchObject({ ingested: 2, unchanged: 0, failed: 0 });
    expect(s.skipped).toEqual(
      expect.arrayContaining([
        { source_path: "image.png", reason: "binary" },
        { source_path: "huge.txt", reason: expect.stringMatching(/^too large/) as unknown },
      ]),
    );
    expect(s.chunks.added).toBeGreaterThan(0);
    // One lexical query matching any of the excluded files' terms: nothing of them may be stored.
    expect(
      (await recall("gobbledyquark buildonlyterm secretterm draftonlyterm modulesonlyterm envonlyterm")).hits,
    ).toEqual([]);
  });

  it("reports every file unchanged on a second run, and re-ingests just an edited file", async () => {
    const again = await ingest(".");
    expect(again.counts).toMatchObject({ ingested: 0, unchanged: 2, failed: 0 });
    write("notes/guide.md", "# Guide\n\nThe zephyrquartz protocol keeps replicas in step, now with quorum reads.\n");
    const edited = await ingest(".");
    expect(names(edited.ingested)).toEqual(["notes/guide.md"]);
    expect(edited.counts).toMatchObject({ ingested: 1, unchanged: 1 });
  });

  it("re-ingests an unchanged file an older analysis stored (its terms are made again)", async () => {
    const db = new Database(join(data, "smriti.db"));
    db.prepare("UPDATE documents SET analysis = 0 WHERE source_path = 'src/app.ts'").run();
    db.close();
    const again = await ingest(".");
    expect(names(again.ingested)).toEqual(["src/app.ts"]);
    expect(again.counts).toMatchObject({ ingested: 1, unchanged: 1 });
    expect((await ingest(".")).counts).toMatchObject({ ingested: 0, unchanged: 2 });
  });

  it("prints a plain summary without a progress bar when stderr is not a TTY", async () => {
    const res = await runCli(["ingest", "src", "--data", data], { cwd: work, env: cliEnv() });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      /^0 ingested, 1 unchanged, 0 skipped, 0 failed; chunks \+0 -0; \d+\.\d\d s \(start-up \d+\.\d\d s\); data /,
    );
    expect(res.stdout.endsWith(`; data ${data}\n`)).toBe(true);
    expect(res.stderr).toBe("");
  });

  it("reports the command's wall time, start-up included (issue 41)", async () => {
    // A slow start stood in for by a preload that blocks 2 s before the CLI's own code runs.
    const slow = join(root, "slow-start.mjs");
    writeFileSync(slow, "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);\n");
    const started = performance.now();
    const s = await runJson<IngestSummary>(["ingest", "src", "--json", "--data", data], {
      cwd: work,
      env: cliEnv({ NODE_OPTIONS: `--import ${slow}` }),
    });
    const wall = performance.now() - started;
    expect(s.startup_ms).toBeGreaterThanOrEqual(2000);
    expect(s.elapsed_ms).toBeGreaterThanOrEqual(s.startup_ms);
    expect(s.elapsed_ms).toBeLessThanOrEqual(wall);
  });

  it("refuses to read a data directory that holds no database, naming it, and creates none", async () => {
    const empty = join(root, "elsewhere");
    mkdirSync(empty);
    const env = cliEnv();
    delete env["SMRITI_DATA_DIR"]; // the default, ./data of the working directory, is what is under test
    for (const args of [
      ["recall", "anything"],
      ["forget", "x.md"],
      ["audit", "verify"],
      ["token", "list"],
      ["cognitive", "status"],
    ]) {
      const res = await runCliHere(args, { cwd: empty, env });
      expect(res.code, args.join(" ")).toBe(1);
      expect(res.stderr).toContain(`no Smriti data in ${join(empty, "data")}`);
    }
    const mcp = await runCli(["mcp"], { cwd: empty, env: { ...env, SMRITI_TOKEN: "smr_from_another_directory" } });
    expect(mcp.code).toBe(1);
    expect(mcp.stderr).toContain("--data");
    expect(existsSync(join(empty, "data"))).toBe(false);
  });

  it("says which data directory an MCP token was looked up in", async () => {
    const res = await runCli(["mcp", "--data", data], { cwd: work, env: cliEnv({ SMRITI_TOKEN: "smr_unknown" }) });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`unauthorized: unknown token (in ${data};`);
  });

  it("exits non-zero when a file fails", async () => {
    const res = await runCli(["ingest", "missing.md", "--json", "--data", data], { cwd: work });
    expect(res.code).toBe(1);
    expect((JSON.parse(res.stdout) as IngestSummary).failed).toEqual([
      { source_path: "missing.md", error: "no such file or directory" },
    ]);
  });

  it("ingests long files on its ingest workers (GloVe vectors included) and exits by itself", async () => {
    const big = join(root, "big");
    const section = (i: number) =>
      `## Part ${i}\n\nThe glimmerwort ledger entry ${i} records a harbour crossing at dawn.\n`;
    for (const name of ["a", "b", "c", "d", "e"]) {
      mkdirSync(join(big, "docs"), { recursive: true });
      writeFileSync(
        join(big, "docs", `${name}.md`),
        `# ${name}\n\n${Array.from({ length: 80 }, (_, i) => section(i)).join("\n")}`,
      );
    }
    const env = { ...process.env, SMRITI_INGEST_WORKERS: "2" };
    const bigData = join(root, "big-data");
    const s = await runJson<IngestSummary>(["ingest", "docs", "--json", "--data", bigData], { cwd: big, env });
    expect(s.ingested.map((r) => r.source_path)).toEqual([
      "docs/a.md",
      "docs/b.md",
      "docs/c.md",
      "docs/d.md",
      "docs/e.md",
    ]);
    expect(s.ingested.every((r) => r.chunks >= 40)).toBe(true);
    const found = await runJson<{ hits: Hit[]; mode: string }>(
      ["recall", "glimmerwort harbour crossing", "--json", "--mode", "hybrid", "--data", bigData],
      { cwd: big, env },
    );
    expect(found.hits[0]?.text_span).toContain("glimmerwort");
  });

  it("finds ingested content with a citation, and not after forget", async () => {
    const { hits } = await recall("zephyrquartz quorum");
    expect(hits[0]).toMatchObject({
      source_path: "notes/guide.md",
      anchor: "Guide",
      chunk_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
    });
    expect(hits[0]?.text_span).toContain("zephyrquartz");
    const code = await recall("flumberwick");
    expect(code.hits[0]?.source_path).toBe("src/app.ts");

    const forgot = await runCliHere(["forget", "notes/guide.md", "--data", data], { cwd: work });
    expect(forgot.code).toBe(0);
    expect((await recall("zephyrquartz")).hits).toEqual([]);
    expect((await recall("flumberwick")).hits).toHaveLength(1);
  });
});

describe("smriti token beside a running server", { timeout: 120_000 }, () => {
  let serverData: string;
  let server: RunningServe;

  beforeAll(async () => {
    serverData = join(root, "server-data");
    server = await startServe(serverData);
  });
  afterAll(async () => server?.stop());

  const recallWith = (token: string) =>
    fetch(`${server.url}/v1/memory/recall`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "x-svc-actor-id": "a1" },
      body: JSON.stringify({ query: "anything" }),
    });

  it("answers /healthz", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
  });

  it("creates, lists and revokes a token the running server honours", async () => {
    const created = await runJsonHere<{ token: string; workspace_id: string; token_id: string }>([
      "token",
      "create",
      "--data",
      serverData,
      "--workspace",
      "default",
      "--actor",
      "a1",
      "--json",
    ]);
    expect(created.token).toMatch(/^smr_/);
    expect(typeof created.workspace_id).toBe("string");
    expect((await recallWith(created.token)).status).toBe(200);

    const listed = await runCliHere(["token", "list", "--data", serverData, "--json"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(created.token);
    const rows = JSON.parse(listed.stdout) as { token_id: string; actors: string[]; revoked_at: string | null }[];
    expect(rows).toContainEqual(
      expect.objectContaining({ token_id: created.token_id, actors: ["a1"], revoked_at: null }),
    );

    const revoked = await runCliHere(["token", "revoke", created.token_id, "--data", serverData]);
    expect(revoked.code).toBe(0);
    // The server re-reads a token it has seen within TOKEN_RECHECK_MS (1 s) of another process's revocation.
    await expect
      .poll(async () => ((await (await recallWith(created.token)).json()) as { error?: { code: string } }).error?.code)
      .toBe("token_revoked");
  });
});
