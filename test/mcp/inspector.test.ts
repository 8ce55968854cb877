// The official MCP Inspector CLI (local devDependency, no download) against `smriti mcp`: a third-party client's view.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createRuntime } from "../../src/main.ts";
import { BIN, cliEnv, ROOT } from "../cli/cli-helpers.ts";
import { tableTools } from "../helpers/mcp-client.ts";

const INSPECTOR = join(ROOT, "node_modules", ".bin", "mcp-inspector");

let data: string;
let env: NodeJS.ProcessEnv;

/** `mcp-inspector --cli node bin/smriti.js mcp --data <dir> ...`; the inspector prints the JSON-RPC result on stdout. */
async function inspect<T>(...args: string[]): Promise<T> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [INSPECTOR, "--cli", process.execPath, BIN, "mcp", "--data", data, ...args],
    { cwd: ROOT, env },
  );
  return JSON.parse(stdout) as T;
}

interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), "smriti-mcp-inspector-"));
  const rt = await createRuntime(loadConfig({}, { data }), { embedder: null, log: () => {} });
  const token = (await rt.auth.issue({ workspace: "default" })).token;
  await rt.close();
  env = cliEnv({ SMRITI_TOKEN: token });
});

afterAll(() => rmSync(data, { recursive: true, force: true }));

describe("MCP Inspector CLI against smriti mcp", () => {
  it("tools/list shows the four memory tools with their input schemas", async () => {
    const { tools } = await inspect<{
      tools: { name: string; description: string; inputSchema: { properties: Record<string, unknown> } }[];
    }>("--method", "tools/list");
    expect(tools.map((t) => t.name).sort()).toEqual(tableTools());
    const recall = tools.find((t) => t.name === "service_recall")!;
    expect(recall.description).toMatch(/citations/);
    expect(Object.keys(recall.inputSchema.properties)).toEqual(
      expect.arrayContaining(["query", "k", "filters", "mode"]),
    );
  });

  it("tools/call ingests, then recalls a citation quoting the content", async () => {
    const content = "Quarterly review: the grumblewort migration finished ahead of schedule.";
    const ingested = await inspect<ToolResult>(
      "--method",
      "tools/call",
      "--tool-name",
      "service_ingest",
      "--tool-arg",
      `content=${content}`,
      "source_path=reviews/q3.md",
    );
    expect(ingested.isError).toBeFalsy();
    const recalled = await inspect<ToolResult>(
      "--method",
      "tools/call",
      "--tool-name",
      "service_recall",
      "--tool-arg",
      "query=grumblewort migration",
      "k=2",
    );
    expect(recalled.isError).toBeFalsy();
    const hits = recalled.structuredContent?.["hits"] as { source_path: string; text_span: string }[];
    expect(hits[0]?.source_path).toBe("reviews/q3.md");
    expect(content).toContain(hits[0]!.text_span);
    // The text item carries the same JSON for clients that ignore structuredContent.
    expect(JSON.parse(recalled.content[0]!.text)).toEqual(recalled.structuredContent);
  });

  it("tools/call with an empty query returns isError and the invalid_request envelope", async () => {
    const res = await inspect<ToolResult>(
      "--method",
      "tools/call",
      "--tool-name",
      "service_recall",
      "--tool-arg",
      "query= ",
    );
    expect(res.isError).toBe(true);
    expect((JSON.parse(res.content[0]!.text) as { error: { code: string } }).error.code).toBe("invalid_request");
  });
});
