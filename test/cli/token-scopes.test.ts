// `smriti token create --scope` and `token list` through the real CLI on a real data directory: the scopes a token is
// made with are what it carries when it calls the service.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createRuntime } from "../../src/main.ts";
import { cliEnv, runCli, runJsonHere } from "./cli-helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "smriti-token-scopes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Created = { token: string; token_id: string; scopes: string[] };

describe("smriti token create --scope", () => {
  it("defaults to read and write; takes comma-separated and repeated scopes; list shows them", async () => {
    const plain = await runJsonHere<Created>(["token", "create", "--json", "--data", dir]);
    const ops = await runJsonHere<Created>([
      "token",
      "create",
      "--json",
      "--scope",
      "read,execute",
      "--scope",
      "admin",
      "--data",
      dir,
    ]);
    expect(plain.scopes).toEqual(["read", "write"]);
    expect(ops.scopes).toEqual(["read", "execute", "admin"]);
    const listed = await runJsonHere<{ token_id: string; scopes: string[] }[]>([
      "token",
      "list",
      "--json",
      "--data",
      dir,
    ]);
    expect(listed.map((t) => [t.token_id, t.scopes])).toEqual([
      [plain.token_id, ["read", "write"]],
      [ops.token_id, ["read", "execute", "admin"]],
    ]);
    const text = await runCli(["token", "list", "--data", dir], { env: cliEnv() });
    expect(text.stdout).toContain(`${ops.token_id}\tdefault\tactive\tread,execute,admin\t`);
    // The stored scopes are what the service authenticates the token with.
    const rt = await createRuntime(loadConfig(cliEnv(), { data: dir }), { embedder: null, log: () => {} });
    try {
      expect((await rt.auth.authenticate(`Bearer ${ops.token}`, null)).scopes).toEqual(["read", "execute", "admin"]);
    } finally {
      await rt.close();
    }
  });

  it("refuses an unknown scope and names the valid ones", async () => {
    const res = await runCli(["token", "create", "--scope", "read,root", "--data", dir], { env: cliEnv() });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("--scope takes read, write, execute, admin");
  });
});
