// MCP over Streamable HTTP through the SDK client against a real listening server: tools, results, errors and auth.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../src/contract/operations.ts";
import type { Operation } from "../../src/contract/route.ts";
import { tableTools } from "../helpers/mcp-client.ts";
import type { RunningServer } from "../../src/transports/http/serve.ts";
import { z } from "zod";
import { callTool, connectMcp, listenWithMcp, toolError } from "../helpers/mcp-client.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

interface Hit {
  chunk_hash: string;
  source_path: string;
  text_span: string;
}

interface Served {
  svc: TestService;
  server: RunningServer;
}

/** Field names a request schema accepts: an object's keys, or every option's keys for a union (forget). */
function inputFields(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodUnion) return [...new Set((schema.options as z.ZodType[]).flatMap(inputFields))];
  return [];
}

async function serve(multiTenant = false): Promise<Served> {
  const svc = await startTestService({ multiTenant, actors: ["agent-1"] });
  const server = await listenWithMcp(svc);
  return { svc, server };
}

const clients: Client[] = [];

const connect = (url: string, headers: Record<string, string>) => connectMcp(url, headers, clients);
const call = callTool;

/** The HTTP status a failed connect reports (the client surfaces it as StreamableHTTPError.code). */
async function connectFailure(url: string, headers: Record<string, string>): Promise<StreamableHTTPError> {
  const err: unknown = await connect(url, headers).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StreamableHTTPError);
  return err as StreamableHTTPError;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe("MCP over Streamable HTTP", () => {
  let s: Served;
  let auth: Record<string, string>;
  beforeAll(async () => {
    s = await serve();
    auth = { authorization: `Bearer ${s.svc.token}` };
  });
  afterAll(async () => {
    await s.server.close();
    await s.svc.cleanup();
  });

  it("lists exactly the table's tools, with descriptions and the contract's input fields", async () => {
    const client = await connect(s.server.url, auth);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(tableTools());
    for (const op of Object.values(operations) as Operation[]) {
      if (!op.tool) continue;
      const tool = tools.find((t) => t.name === op.tool)!;
      expect(tool.description).toBe(op.description);
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(inputFields(op.input).sort());
      expect(tool.outputSchema?.type).toBe("object");
    }
    expect(tools.find((t) => t.name === "service_recall")!.inputSchema.required).toEqual(["query"]);
  });

  it("ingests, recalls citations quoting the content, forgets, and no longer recalls", async () => {
    const client = await connect(s.server.url, auth);
    const content =
      "# Storage\n\nWe keep the vault in SQLite with write-ahead logging enabled.\n\n## Backups\n\nNightly snapshots go to cold storage.\n";
    const ingested = await call<{ source_path: string; chunks: number }>(client, "service_ingest", {
      content,
      source_path: "notes/storage.md",
    });
    expect(ingested).toMatchObject({ source_path: "notes/storage.md" });
    expect(ingested.chunks).toBeGreaterThan(0);

    const recalled = await call<{ hits: Hit[] }>(client, "service_recall", { query: "write-ahead logging", k: 3 });
    expect(recalled.hits.length).toBeGreaterThan(0);
    for (const h of recalled.hits) {
      expect(h.source_path).toBe("notes/storage.md");
      expect(content).toContain(h.text_span);
    }

    const forgotten = await call<{ removed_sources: string[] }>(client, "service_forget", {
      source_path: "notes/storage.md",
    });
    expect(forgotten.removed_sources).toEqual(["notes/storage.md"]);
    const after = await call<{ hits: Hit[] }>(client, "service_recall", { query: "write-ahead logging" });
    expect(after.hits).toEqual([]);
  });

  it("builds a pack within its token budget", async () => {
    const client = await connect(s.server.url, auth);
    const topics = [
      "compaction",
      "snapshots",
      "leases",
      "heartbeats",
      "elections",
      "membership",
      "checksums",
      "throttling",
      "tracing",
      "rollbacks",
      "fencing",
      "gossip",
    ];
    for (const [i, topic] of topics.entries()) {
      const text = `The quorum log governs ${topic}: node ${i} replays its ${topic} journal, verifies ${topic} ordering and reports ${topic} lag to operators.`;
      await call(client, "service_ingest", {
        content: `# Node ${i}\n\n${text}\n`,
        source_path: `cluster/node-${i}.md`,
      });
    }
    const pack = await call<{
      budget_tokens: number;
      used_tokens: number;
      items: unknown[];
      dropped: { over_budget: number };
    }>(client, "service_pack", {
      intent: "quorum log writes",
      budget_tokens: 100,
    });
    expect(pack.budget_tokens).toBe(100);
    expect(pack.items.length).toBeGreaterThan(0);
    expect(pack.used_tokens).toBeLessThanOrEqual(100);
    // Twelve matching passages do not fit in 100 tokens, so the budget is what stopped the pack.
    expect(pack.dropped.over_budget).toBeGreaterThan(0);
  });

  it("packs evidence about a time the intent names first, as recall ranks it", async () => {
    const client = await connect(s.server.url, auth);
    for (const [path, content, occurred_at] of [
      ["log/may.txt", "We shipped the zorbic release to every customer.", "2023-05-10T09:00:00Z"],
      ["log/august.txt", "We shipped the zorbic release to the customers.", "2023-08-10T09:00:00Z"],
    ])
      await call(client, "service_ingest", { source_path: path, content, occurred_at });
    const first = async (intent: string) =>
      (await call<{ items: { citation: Hit }[] }>(client, "service_pack", { intent, budget_tokens: 200 })).items[0]!
        .citation.source_path;
    expect(await first("zorbic release shipped in May 2023")).toBe("log/may.txt");
    expect(await first("zorbic release shipped in August")).toBe("log/august.txt");
  });

  it("answers invalid arguments with isError and the invalid_request envelope, like HTTP", async () => {
    const client = await connect(s.server.url, auth);
    expect(toolError(await client.callTool({ name: "service_recall", arguments: { query: "" } })).code).toBe(
      "invalid_request",
    );
    // ForgetRequest's cross-field refine runs too: both targets at once is rejected.
    const both = toolError(
      await client.callTool({
        name: "service_forget",
        arguments: { source_path: "a.md", chunk_hash: `sha256:${"0".repeat(64)}` },
      }),
    );
    expect(both).toMatchObject({ code: "invalid_request", message: expect.stringContaining("exactly one") as unknown });
    expect(toolError(await client.callTool({ name: "service_nope", arguments: {} })).code).toBe("not_found");
  });

  it("rejects a missing or unknown token with HTTP 401 and the error envelope", async () => {
    const missing = await connectFailure(s.server.url, {});
    expect(missing.code).toBe(401);
    expect(missing.message).toContain('"code":"unauthorized"');
    const unknown = await connectFailure(s.server.url, { authorization: "Bearer smr_not-a-token" });
    expect(unknown.code).toBe(401);
  });

  it("binds x-svc-actor-id to the token: an allowed actor works, another is 403 actor_forbidden", async () => {
    const ok = await connect(s.server.url, { ...auth, "x-svc-actor-id": "agent-1" });
    await call(ok, "service_recall", { query: "anything" });
    const denied = await connectFailure(s.server.url, { ...auth, "x-svc-actor-id": "intruder" });
    expect(denied.code).toBe(403);
    expect(denied.message).toContain('"code":"actor_forbidden"');
  });

  it("offers no GET stream or DELETE in stateless mode (405 after auth)", async () => {
    const get = await fetch(new URL("/mcp", s.server.url), { headers: { ...auth, accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(((await get.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");
    expect((await fetch(new URL("/mcp", s.server.url), { method: "DELETE" })).status).toBe(401);
  });
});

describe("MCP over HTTP with multi-tenancy on", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve(true);
  });
  afterAll(async () => {
    await s.server.close();
    await s.svc.cleanup();
  });

  it("keeps each token inside its workspace", async () => {
    const mine = await connect(s.server.url, { authorization: `Bearer ${s.svc.token}` });
    const theirs = await connect(s.server.url, { authorization: `Bearer ${(await s.svc.issueToken("acme")).token}` });
    await call(mine, "service_ingest", {
      content: "The zanzibarite codename belongs to the default workspace.",
      source_path: "secret.md",
    });
    expect((await call<{ hits: Hit[] }>(mine, "service_recall", { query: "zanzibarite codename" })).hits).toHaveLength(
      1,
    );
    expect((await call<{ hits: Hit[] }>(theirs, "service_recall", { query: "zanzibarite codename" })).hits).toEqual([]);
    // The other workspace cannot even name the source, let alone forget it.
    expect(
      toolError(await theirs.callTool({ name: "service_forget", arguments: { source_path: "secret.md" } })).code,
    ).toBe("not_found");
    expect((await call<{ hits: Hit[] }>(mine, "service_recall", { query: "zanzibarite codename" })).hits).toHaveLength(
      1,
    );
  });
});
