// The grounded, eval and audit tools through the MCP SDK client over Streamable HTTP, against a real listening server.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AuditResponse } from "../../src/contract/audit.ts";
import type { GroundedAnswerResponse } from "../../src/contract/grounded.ts";
import type { GroundedEvalResponse } from "../../src/contract/nuggets.ts";
import { operations } from "../../src/contract/operations.ts";
import type { RunningServer } from "../../src/transports/http/serve.ts";
import { callTool, connectMcp, listenWithMcp, toolError } from "../helpers/mcp-client.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import {
  expectGroundedCitation,
  FACTOIDS,
  ingestCorpus,
  json,
  UNRELATED,
  type InsufficientDetails,
  ANSWERED_TRAJECTORY,
} from "./support.ts";

let svc: TestService;
let server: RunningServer;
const clients: Client[] = [];

beforeAll(async () => {
  svc = await startTestService({ actors: ["agent-1"], multiTenant: true });
  await ingestCorpus(svc);
  server = await listenWithMcp(svc);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await server.close();
  await svc.cleanup();
});

const connect = (headers: Record<string, string> = { authorization: `Bearer ${svc.token}` }) =>
  connectMcp(server.url, headers, clients);
const call = callTool;

describe("grounded tools over MCP", () => {
  it("lists service_grounded_answer, service_grounded_eval and service_audit with the table's descriptions", async () => {
    const { tools } = await (await connect()).listTools();
    for (const id of ["grounded_answer", "grounded_eval", "audit"] as const) {
      const op = operations[id];
      const tool = tools.find((t) => t.name === op.tool);
      expect(tool, op.tool).toBeDefined();
      expect(tool!.description).toBe(op.description);
      expect(Object.keys(tool!.inputSchema.properties ?? {}).sort()).toEqual(Object.keys(op.input.shape).sort());
      expect(tool!.outputSchema?.type).toBe("object");
    }
    // The stream is HTTP-only.
    expect(tools.some((t) => /stream/.test(t.name))).toBe(false);
  });

  it("answers with citations and a trajectory that service_audit replays, attributed to the actor", async () => {
    const client = await connect({ authorization: `Bearer ${svc.token}`, "x-svc-actor-id": "agent-1" });
    const { question, answer } = FACTOIDS[3]!;
    const res = await call<GroundedAnswerResponse>(client, "service_grounded_answer", { question });
    expect(res.answer).toBe(answer);
    expect(res.citations.length).toBeGreaterThan(0);
    expect(res.citations[0]!.text_span).toContain(answer);
    for (const c of res.citations) expectGroundedCitation(c);
    expect(res.steps.map((s) => s.name)).toEqual(["retrieve", "score_candidates", "select", "answer"]);

    // Same answer as the HTTP route.
    const http = await json<GroundedAnswerResponse>(svc.post("/v1/grounded/answer", { question }), 200);
    expect(res.citations.map((c) => c.text_span)).toEqual(http.citations.map((c) => c.text_span));

    const log = await call<AuditResponse>(client, "service_audit", { trajectory_id: res.trajectory_id });
    expect(log.events.map((e) => e.type)).toEqual(ANSWERED_TRAJECTORY);
    for (const e of log.events) expect(e.actor_id).toBe("agent-1");
    expect(log.events.at(-1)!.payload).toMatchObject({ outcome: "answered", response: { answer } });
  });

  it("reports insufficient evidence as isError with code insufficient_evidence, details and a logged trajectory", async () => {
    const client = await connect();
    const err = toolError<InsufficientDetails>(
      await client.callTool({ name: "service_grounded_answer", arguments: { question: UNRELATED } }),
    );
    expect(err.code).toBe("insufficient_evidence");
    expect(err.details?.trajectory_id).toMatch(/^traj_/);
    expect(Array.isArray(err.details?.rejected)).toBe(true);
    expect(err.details?.steps.map((s) => s.name)).toEqual(["retrieve", "score_candidates", "select", "abstain"]);
    const log = await call<AuditResponse>(client, "service_audit", { trajectory_id: err.details!.trajectory_id });
    expect(log.events.at(-1)!.payload).toMatchObject({ outcome: "insufficient_evidence" });

    const forced = toolError<InsufficientDetails>(
      await client.callTool({
        name: "service_grounded_answer",
        arguments: { question: FACTOIDS[0]!.question, min_confidence: 1 },
      }),
    );
    expect(forced.code).toBe("insufficient_evidence");
    expect(forced.details!.rejected.length).toBeGreaterThan(0);
  });

  it("rejects bad arguments with invalid_request, like HTTP", async () => {
    const client = await connect();
    expect(
      toolError(await client.callTool({ name: "service_grounded_answer", arguments: { question: "" } })).code,
    ).toBe("invalid_request");
    expect(
      toolError(await client.callTool({ name: "service_grounded_eval", arguments: { output: "x", nuggets: [] } })).code,
    ).toBe("invalid_request");
    expect(
      toolError(
        await client.callTool({
          name: "service_grounded_eval",
          arguments: { output: "x", nuggets: [{ text: "x", importance: "meh" }] },
        }),
      ).code,
    ).toBe("invalid_request");
    expect(toolError(await client.callTool({ name: "service_audit", arguments: { limit: 0 } })).code).toBe(
      "invalid_request",
    );
    expect(toolError(await client.callTool({ name: "service_audit", arguments: { cursor: "garbage" } })).code).toBe(
      "invalid_cursor",
    );
    expect(
      toolError(
        await client.callTool({
          name: "service_audit",
          arguments: { trajectory_id: "traj_00000000-0000-0000-0000-000000000000" },
        }),
      ).code,
    ).toBe("not_found");
  });

  it("scores an output against nuggets, with citation checks, identically to HTTP", async () => {
    const client = await connect();
    const args = {
      output: "Ingrid Solberg designed the Varenholm lighthouse. It had 14 keepers.",
      nuggets: [
        { text: "Ingrid Solberg designed the lighthouse", importance: "vital" },
        { text: "The last keeper left in March 1962", importance: "okay" },
      ],
      citations: [{ chunk_hash: `sha256:${"0".repeat(64)}`, text_span: "made up" }],
    };
    const res = await call<GroundedEvalResponse>(client, "service_grounded_eval", args);
    expect(res.nuggets.map((n) => n.support)).toEqual(["supported", "not_supported"]);
    expect(res.weighted_score).toBeCloseTo(1 / 1.5, 6);
    expect(res.citations[0]).toMatchObject({ exists: false, supports: false });
    expect(res.citation_precision).toBe(0);
    expect(await json<GroundedEvalResponse>(svc.post("/v1/grounded/eval", args), 200)).toEqual(res);
  });

  it("tails the log with cursor paging and filters, and keeps workspaces apart", async () => {
    const client = await connect({ authorization: `Bearer ${svc.token}`, "x-svc-actor-id": "agent-1" });
    await call(client, "service_ingest", { source_path: "mcp/note.md", content: "# Note\n\nWritten through MCP.\n" });
    const ingests = await call<AuditResponse>(client, "service_audit", { type: "memory.ingest", actor: "agent-1" });
    expect(ingests.events.map((e) => (e.payload as { source_path: string }).source_path)).toEqual(["mcp/note.md"]);

    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: AuditResponse = await call<AuditResponse>(client, "service_audit", {
        limit: 3,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.events.map((e) => e.seq));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => seen.length - i)); // newest first, down to seq 1
    const firstPage = await call<AuditResponse>(client, "service_audit", { limit: 1 });

    const other = await connect({ authorization: `Bearer ${(await svc.issueToken("acme")).token}` });
    expect((await call<AuditResponse>(other, "service_audit", {})).events).toEqual([]);
    expect(
      toolError(await other.callTool({ name: "service_audit", arguments: { cursor: firstPage.next_cursor } })).code,
    ).toBe("invalid_cursor");
  });
});
