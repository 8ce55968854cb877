// Phase 1: property-based requests over every route of the table and every MCP tool, from their zod schemas, valid and
// mutated. Nothing may answer 5xx or crash the process; every 4xx carries the error envelope (JSON-RPC's for /mcp); a
// rejected request changes nothing in the store.
import fc from "fast-check";
import { z } from "zod";
import type { Route } from "../../src/contract/route.ts";
import { fillPath, pathParameters, routes } from "../../src/contract/routes.ts";
import { mutated, type Schema, type WireBody } from "./arbitraries.ts";
import { isErrorEnvelope, send } from "./wire.ts";

export interface FuzzResult {
  requests: number;
  byKind: Record<string, number>;
  status2xx: number;
  status4xx: number;
  status5xx: number;
  /** 4xx answers whose body is not the error envelope. */
  badEnvelopes: number;
  /** Rejected requests after which the store's fingerprint had moved. */
  rejectedThatWrote: number;
  /** Requests that got no answer (connection reset, timeout). */
  noAnswer: number;
  crashed: boolean;
  examples: string[];
}

interface Target {
  label: string;
  /** An event stream: read to its end (a grounded answer's run records its trajectory as it finishes). */
  stream: boolean;
  method: string;
  path: (input: unknown) => string;
  wire: fc.Arbitrary<WireBody>;
  mcpTool?: string;
}

const schemaOf = (input: z.ZodType) => z.toJSONSchema(input, { io: "input", unrepresentable: "any" }) as Schema;

function targets(): Target[] {
  const out: Target[] = [];
  for (const row of Object.values(routes) as Route[]) {
    if (row.kind === "service") continue;
    const schema = schemaOf(row.input);
    const params = pathParameters(row.path);
    const path = (input: unknown) => {
      const o = input && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
      // Path values as long as query values at most: a longer URL is refused by the HTTP parser (431) while the client is
      // still sending it, which the client sees as a reset, not an answer (test/http/abuse-limits.test.ts covers that 431).
      return fillPath(row.path, Object.fromEntries(params.map((p) => [p, String(o[p] ?? "x").slice(0, 4_000)])));
    };
    out.push({
      label: `${row.method} ${row.path}`,
      stream: row.kind === "stream",
      method: row.method,
      path,
      wire: mutated(schema),
    });
    if ("tool" in row && row.tool)
      out.push({
        label: `mcp ${row.tool}`,
        stream: false,
        method: "POST",
        path: () => "/mcp",
        wire: mutated(schema),
        mcpTool: row.tool,
      });
  }
  return out;
}

/** The URL and body of a GET: the input's fields become the query (a body-shaped mutation is sent as one odd field). */
function getUrl(base: string, path: string, w: WireBody): string {
  const url = new URL(path, base);
  // Deep nesting goes into the query as it is: parsed and re-serialised it would only test this process's stack.
  const value: unknown = w.kind === "deep nesting" ? w.body : parse(w);
  if (value && typeof value === "object" && !Array.isArray(value))
    for (const [k, v] of Object.entries(value))
      url.searchParams.set(k, (typeof v === "string" ? v : (JSON.stringify(v) ?? "")).slice(0, 8_000));
  else if (value != null)
    url.searchParams.set("q", String(typeof value === "string" ? value : JSON.stringify(value)).slice(0, 8_000));
  return url.toString();
}

function mcpBody(tool: string, id: number, w: WireBody): WireBody {
  if (w.kind !== "valid" && w.kind !== "wrong type" && w.kind !== "unknown field" && w.kind !== "not an object")
    return w; // raw bytes at the endpoint
  const args = JSON.parse(w.body as string) as unknown;
  return {
    kind: w.kind,
    contentType: "application/json",
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: args } }),
  };
}

/** A JSON-RPC answer over HTTP: a result (an isError one carries our envelope as text) or an error object. */
function mcpRejected(body: string): { ok: boolean; rejected: boolean } {
  try {
    const msg = JSON.parse(body) as {
      result?: { isError?: boolean; content?: { type: string; text?: string }[] };
      error?: { code: number; message: string };
    };
    if (msg.error)
      return { ok: typeof msg.error.code === "number" && typeof msg.error.message === "string", rejected: true };
    if (msg.result?.isError) return { ok: isErrorEnvelope(msg.result.content?.[0]?.text ?? ""), rejected: true };
    return { ok: msg.result !== undefined, rejected: false };
  } catch {
    return { ok: false, rejected: true };
  }
}

export async function fuzz(
  base: string,
  token: string,
  fingerprint: () => Promise<string>,
  alive: () => boolean,
  opts: { perTarget: number; seed: number },
): Promise<FuzzResult> {
  const r: FuzzResult = {
    requests: 0,
    byKind: {},
    status2xx: 0,
    status4xx: 0,
    status5xx: 0,
    badEnvelopes: 0,
    rejectedThatWrote: 0,
    noAnswer: 0,
    crashed: false,
    examples: [],
  };
  const note = (s: string) => void (r.examples.length < 10 && r.examples.push(s));
  let id = 0;
  for (const [i, t] of targets().entries()) {
    const cases = fc.sample(t.wire, { numRuns: opts.perTarget, seed: opts.seed + i });
    for (const c of cases) {
      const w = t.mcpTool ? mcpBody(t.mcpTool, ++id, c) : c;
      const headers: Record<string, string> = {
        authorization: `Bearer ${token}`,
        ...(t.mcpTool ? { accept: "application/json, text/event-stream" } : {}),
      };
      if (w.contentType && t.method !== "GET") headers["content-type"] = w.contentType;
      const url = t.method === "GET" ? getUrl(base, t.path(parse(c)), w) : new URL(t.path(parse(c)), base).toString();
      const before = await fingerprint();
      r.requests++;
      r.byKind[w.kind] = (r.byKind[w.kind] ?? 0) + 1;
      let res;
      try {
        res = await send(
          url,
          { method: t.method, headers, ...(t.method === "GET" ? {} : { body: w.body }) },
          30_000,
          t.stream ? 2_000 : 0,
        );
        // A background session it started runs on after the answer: let it end, so what it writes is not blamed on
        // the next request.
        if (res.status < 300 && t.method === "POST" && /\/sessions(\/[^/]+\/resume)?$/.test(new URL(url).pathname))
          await settle(base, token);
      } catch (err) {
        r.noAnswer++;
        note(`${t.label} (${w.kind}): no answer: ${(err as Error).message}`);
        if (!alive()) return { ...r, crashed: true };
        continue;
      }
      if (res.status >= 500) {
        r.status5xx++;
        note(`${t.label} (${w.kind}): ${res.status} ${res.body.slice(0, 200)}`);
      } else if (res.status >= 400) r.status4xx++;
      else r.status2xx++;
      const mcp = t.mcpTool ? mcpRejected(res.body) : null;
      // An abstention (422 insufficient_evidence) is an answer, and audited like one: not a rejected request.
      const rejected = (res.status >= 400 || mcp?.rejected === true) && !res.body.includes("insufficient_evidence");
      const shaped = mcp
        ? mcp.ok || (res.status >= 400 && isErrorEnvelope(res.body))
        : res.status < 400 || isErrorEnvelope(res.body);
      if (!shaped) {
        r.badEnvelopes++;
        note(`${t.label} (${w.kind}): ${res.status} not the error envelope: ${res.body.slice(0, 200)}`);
      }
      const after = rejected ? await fingerprint() : before;
      if (after !== before) {
        r.rejectedThatWrote++;
        note(`${t.label} (${w.kind}): rejected (${res.status}) yet the store changed: ${before} -> ${after}`);
      }
    }
    if (!alive()) return { ...r, crashed: true };
  }
  return r;
}

function parse(w: WireBody): unknown {
  if (w.kind === "deep nesting") return null;
  try {
    return typeof w.body === "string" ? JSON.parse(w.body) : null;
  } catch {
    return null;
  }
}

/** Waits (up to 10 s) until no background session is queued, running or recovering. */
async function settle(base: string, token: string): Promise<void> {
  const until = performance.now() + 10_000;
  while (performance.now() < until) {
    const busy = await Promise.all(
      ["queued", "running", "recovering"].map(async (status) => {
        const res = await fetch(`${base}/sessions?status=${status}&limit=1`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return ((await res.json()) as { sessions: unknown[] }).sessions.length > 0;
      }),
    );
    if (!busy.includes(true)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
