// `smriti mcp` as a real child process driven by the SDK's stdio client: token auth, local fallback, revocation, exit on EOF.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createRuntime } from "../../src/main.ts";
import { BIN, cliEnv, ROOT } from "../cli/cli-helpers.ts";
import { tableTools } from "../helpers/mcp-client.ts";

let data: string;
let token: string;
let tokenId: string;

/** Issues and revokes tokens the way `smriti token` would: a second connection to the same data file. */
async function withDataRuntime<T>(fn: (rt: Awaited<ReturnType<typeof createRuntime>>) => T): Promise<T> {
  const rt = await createRuntime(loadConfig({}, { data }), { embedder: null, log: () => {} });
  try {
    return fn(rt);
  } finally {
    await rt.close();
  }
}

interface Session {
  client: Client;
  stderr: () => string;
  /** Errors the client transport raised, e.g. a non-JSON line on the server's stdout. */
  transportErrors: Error[];
}

async function open(env: Record<string, string>): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", "--data", data],
    cwd: ROOT,
    env: cliEnv(env) as Record<string, string>,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const transportErrors: Error[] = [];
  const client = new Client({ name: "smriti-stdio-test", version: "0.0.0" });
  client.onerror = (e) => transportErrors.push(e);
  await client.connect(transport);
  return { client, stderr: () => stderr, transportErrors };
}

const structured = <T>(res: unknown): T => {
  const r = res as CallToolResult;
  if (r.isError) throw new Error(JSON.stringify(r.content));
  return r.structuredContent as T;
};

const errorCode = (res: unknown): string => {
  const r = res as CallToolResult;
  const first = r.content[0];
  expect(r.isError).toBe(true);
  return first?.type === "text" ? (JSON.parse(first.text) as { error: { code: string } }).error.code : "";
};

beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), "smriti-mcp-stdio-"));
  const issued = await withDataRuntime((rt) => rt.auth.issue({ workspace: "default", actors: ["agent-1"] }));
  token = issued.token;
  tokenId = issued.record.id;
});

afterAll(() => rmSync(data, { recursive: true, force: true }));

describe("smriti mcp (stdio)", () => {
  it("ingests and recalls with SMRITI_TOKEN, keeping stdout pure protocol", async () => {
    const s = await open({ SMRITI_TOKEN: token, SMRITI_ACTOR_ID: "agent-1" });
    try {
      const { tools } = await s.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(tableTools());
      const content = "# Runbook\n\nRotate the flibbertigibbet credentials every ninety days.\n";
      await s.client.callTool({ name: "service_ingest", arguments: { content, source_path: "ops/runbook.md" } });
      const { hits } = structured<{ hits: { text_span: string; source_path: string }[] }>(
        await s.client.callTool({ name: "service_recall", arguments: { query: "flibbertigibbet credentials" } }),
      );
      expect(hits[0]?.source_path).toBe("ops/runbook.md");
      expect(content).toContain(hits[0]!.text_span);
      expect(s.transportErrors).toEqual([]);
      expect(s.stderr()).toMatch(/mcp on stdio \(data [^,]+, workspace default/);
    } finally {
      await s.client.close();
    }
  });

  it("without SMRITI_TOKEN acts in --workspace (default) as a trusted local process", async () => {
    const s = await open({});
    try {
      const { hits } = structured<{ hits: unknown[] }>(
        await s.client.callTool({ name: "service_recall", arguments: { query: "flibbertigibbet" } }),
      );
      expect(hits).toHaveLength(1);
    } finally {
      await s.client.close();
    }
  });

  it("refuses to start with a bad token or an actor no token allows, answering initialize with the cause", async () => {
    for (const [env, code] of [
      [{ SMRITI_TOKEN: "smr_wrong" }, "unauthorized"],
      [{ SMRITI_TOKEN: token, SMRITI_ACTOR_ID: "intruder" }, "actor_forbidden"],
      // Without a token nothing vouches for an actor: it is refused, not trusted.
      [{ SMRITI_ACTOR_ID: "agent-1" }, "actor_forbidden"],
    ] as const) {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, "mcp", "--data", data],
        cwd: ROOT,
        env: cliEnv(env) as Record<string, string>,
        stderr: "pipe",
      });
      let stderr = "";
      transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => (transport.onclose = () => resolve(0)));
      // The client sees the JSON-RPC error naming the cause, not just "Connection closed".
      await expect(new Client({ name: "t", version: "0" }).connect(transport)).rejects.toThrow(code);
      await exited;
      expect(stderr).toContain(code);
    }
  });

  it("in a folder without data answers initialize with the cause and exits non-zero, with or without a token", async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), "smriti-mcp-nodata-"));
    try {
      for (const env of [{ SMRITI_TOKEN: token }, {}]) {
        const transport = new StdioClientTransport({
          command: process.execPath,
          args: [BIN, "mcp"],
          cwd: elsewhere,
          env: cliEnv(env) as Record<string, string>,
          stderr: "pipe",
        });
        await expect(new Client({ name: "t", version: "0" }).connect(transport)).rejects.toThrow(
          `no Smriti data in ${join(elsewhere, "data")}`,
        );
      }
      // The same over a raw pipe, for the exit code (the SDK transport does not report it).
      const child = spawn(process.execPath, [BIN, "mcp"], {
        cwd: elsewhere,
        env: cliEnv(),
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} })}\n`);
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      expect(code).toBe(1);
      expect(JSON.parse(stdout)).toMatchObject({
        id: 1,
        error: { message: expect.stringMatching(/^start_failed: no Smriti data in .* pass --data/) },
      });
      expect(existsSync(join(elsewhere, "data"))).toBe(false); // nothing was created there
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("re-checks the token: a token another process revokes mid-session stops working within a second", async () => {
    const s = await open({ SMRITI_TOKEN: token });
    try {
      structured(await s.client.callTool({ name: "service_recall", arguments: { query: "runbook" } }));
      await withDataRuntime((rt) => rt.auth.revoke(tokenId));
      // Another process revoked it: the MCP process re-reads the token within TOKEN_RECHECK_MS (1 s).
      await expect
        .poll(async () => {
          const res = (await s.client.callTool({
            name: "service_recall",
            arguments: { query: "runbook" },
          })) as CallToolResult;
          return res.isError ? errorCode(res) : "served";
        })
        .toBe("token_revoked");
    } finally {
      await s.client.close();
    }
  });

  it("exits cleanly as soon as stdin closes", async () => {
    const child = spawn(process.execPath, [BIN, "mcp", "--data", data], {
      cwd: ROOT,
      env: cliEnv(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      // End input only once the server is up, so the test covers "serving, then the client hangs up".
      if (d.toString().includes("mcp on stdio")) child.stdin.end();
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    expect(stdout).toBe("");
  });
});
