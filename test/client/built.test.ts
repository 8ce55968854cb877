// The built client (tsconfig.client.json, what `prepare` puts in dist/) from plain Node: no tsx, no loader, against a real server.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);

// Imports the built client by file URL (argv[2]), ingests and recalls through a real server, prints what came back.
const SCRIPT = `
const { createClient, SmritiError } = await import(process.argv[2]);
const client = createClient({ baseUrl: process.argv[3], token: process.argv[4] });
const ingested = await client.ingest({ source_path: "history/lighthouse.md", content: "# Lighthouse\\n\\nThe Varenholm lighthouse was designed by Ingrid Solberg.\\n" });
const recalled = await client.recall({ query: "who designed the lighthouse", k: 3 });
const err = await client.recall({ query: "" }).catch((e) => e);
console.log(JSON.stringify({ added: ingested.added.length, top: recalled.hits[0]?.text_span, error: err instanceof SmritiError ? err.code : String(err) }));
`;

/** Every file under dir, relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));

describe("built smriti/client", () => {
  let out: string;
  let svc: TestService;
  let server: RunningServer;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), "smriti-client-build-"));
    symlinkSync(join(ROOT, "node_modules"), join(out, "node_modules"), "junction"); // zod resolves as it would for an installed package
    const build = run(process.execPath, [
      join(ROOT, "node_modules/typescript/bin/tsc"),
      "-p",
      join(ROOT, "tsconfig.client.json"),
      "--outDir",
      join(out, "dist"),
    ]);
    [svc] = await Promise.all([startTestService(), build]);
    server = await listen(svc.app, "127.0.0.1", 0);
  });
  afterAll(async () => {
    await server?.close();
    await svc?.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  it("emits the files package.json exports name, with no .ts specifiers in the JavaScript", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, unknown> };
    const built = Object.entries(pkg.exports).filter(
      (e): e is [string, Record<string, string>] => typeof e[1] === "object",
    );
    expect(built.map(([name]) => name)).toEqual(["./client", "./langchain", "./ai-sdk"]);
    for (const [name, target] of built)
      for (const file of [target.types!, target.default!])
        expect(existsSync(join(out, file)), `${name}: ${file}`).toBe(true);
    const js = filesUnder(join(out, "dist")).filter((f) => f.endsWith(".js"));
    expect(js).toContain(join("client", "index.js"));
    for (const f of js) expect(readFileSync(join(out, "dist", f), "utf8"), f).not.toMatch(/\.ts["']/);
    // smriti/client pulls in no adapter: nothing it or the contract imports names a framework.
    for (const f of js.filter((f) => !f.startsWith("frameworks")))
      expect(readFileSync(join(out, "dist", f), "utf8"), f).not.toMatch(/frameworks\/|@langchain|from "ai"/);
  });

  it("ingests and recalls from plain node", async () => {
    writeFileSync(join(out, "run.mjs"), SCRIPT);
    const url = pathToFileURL(join(out, "dist/client/index.js")).href;
    const env = { ...process.env };
    delete env.NODE_OPTIONS; // no loader a parent may have set
    const { stdout } = await run(process.execPath, [join(out, "run.mjs"), url, server.url, svc.token], {
      cwd: out,
      env,
    });
    expect(JSON.parse(stdout)).toEqual({
      added: 1,
      top: expect.stringContaining("Ingrid Solberg"),
      error: "invalid_request",
    });
  });
});
