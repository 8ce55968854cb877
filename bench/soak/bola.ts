// Phase 3: broken object-level authorization (OWASP API1). Workspace alpha holds a document, a trajectory, a decision,
// knowledge records, a trace, a chat session with a pending approval and a background session, all marked with one
// secret word. Every route and MCP tool is then called with beta's token and alpha's ids, with an actor header alpha's
// token does not allow, and with no token: nothing of alpha's may come back, and alpha's data must be intact after.
import fc from "fast-check";
import { z } from "zod";
import type { Route } from "../../src/contract/route.ts";
import { fillPath, pathParameters, routes } from "../../src/contract/routes.ts";
import { valid, type Schema } from "./arbitraries.ts";
import { send } from "./wire.ts";

export const SECRET = "zephyrquartz";

export interface BolaResult {
  attempts: number;
  /** 2xx answers to another workspace's token that carried alpha's secret. */
  leaks: number;
  /** Calls with a foreign actor header or no token that were not refused (401/403). */
  unrefused: number;
  /** Alpha's objects changed by beta's calls (forgotten, paused, cancelled, answered). */
  tampered: number;
  examples: string[];
}

type Ids = Record<string, string>;

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

/** Creates alpha's objects through the public API and returns their ids by the field names routes use. */
export async function seedAlpha(base: string, token: string): Promise<Ids> {
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const ok = async (res: Response) => {
    if (!res.ok) throw new Error(`seeding alpha: ${res.status} ${await res.text()}`);
    return json(res);
  };
  const ingest = await ok(
    await post("/v1/memory/ingest", {
      source_path: "alpha/secret.md",
      content: `# Vault\n\nThe ${SECRET} code opens the alpha vault.\n\n- [ ] TODO rotate the ${SECRET} code\n`,
    }),
  );
  const chunk = (ingest["added"] as { chunk_hash: string }[])[0]!.chunk_hash;
  const answer = await ok(
    await post("/v1/grounded/answer", { question: `What opens the alpha vault?`, min_confidence: 0 }),
  );
  const decision = await ok(
    await post("/v1/decisions", {
      title: `Keep the ${SECRET} code secret`,
      decision: `The ${SECRET} code stays in the alpha vault.`,
    }),
  );
  const shravan = await ok(
    await post("/v1/memory/assimilation/shravan", {
      content: `${SECRET} is the alpha code.`,
      source_type: "note",
      source_title: `${SECRET} note`,
      authority: "official",
      trust_score: 0.9,
      relevance_score: 0.9,
    }),
  );
  const manan = await ok(
    await post("/v1/memory/assimilation/manan", { shravan_id: shravan["shravan_id"] ?? shravan["id"] }),
  );
  const trace = await ok(await post("/sdk/cognitive/process", { query: `${SECRET} vault` }));
  const chat = await ok(await post("/chat/sessions", { approval_mode: "always" }));
  const chatId = chat["session_id"] as string;
  // The turn pauses on its first tool call for an operator: that approval's request id is alpha's too.
  const turn = await (
    await post(`/chat/sessions/${chatId}/messages`, { message: `What opens the ${SECRET} vault?` })
  ).text();
  const requestId = /"request_id":"([^"]+)"/.exec(turn)?.[1] ?? "";
  const eventId = [...turn.matchAll(/^id: (.+)$/gm)].at(-1)?.[1] ?? "";
  const bg = await ok(await post("/sessions", { task: `Summarise the ${SECRET} vault`, approval_mode: "always" }));
  const audit = await ok(
    await fetch(`${base}/v1/audit/event_log?limit=1`, { headers: { authorization: `Bearer ${token}` } }),
  );
  return {
    chunk_hash: chunk,
    source_path: "alpha/secret.md",
    source_path_prefix: "alpha/",
    trajectory_id: answer["trajectory_id"] as string,
    ref: decision["ref"] as string,
    shravan_id: (shravan["shravan_id"] ?? shravan["id"]) as string,
    manan_id: (manan["manan_id"] ?? manan["id"]) as string,
    trace_id: trace["trace_id"] as string,
    session_id: chatId,
    background_session_id: (bg["session"] as Record<string, unknown>)["session_id"] as string,
    request_id: requestId,
    from_event_id: eventId,
    cursor: (audit["next_cursor"] as string | null) ?? "",
  };
}

/** A request to `row` carrying alpha's ids wherever the input has a field of that name. */
function foreignInputs(row: Exclude<Route, { kind: "service" }>, ids: Ids, seed: number): Record<string, unknown>[] {
  const schema = z.toJSONSchema(row.input, { io: "input", unrepresentable: "any" }) as Schema;
  const branches = schema.anyOf ?? [schema];
  const out: Record<string, unknown>[] = [];
  for (const [b, branch] of branches.entries()) {
    const base = (fc.sample(valid(branch), { numRuns: 1, seed: seed + b })[0] ?? {}) as Record<string, unknown>;
    const props = Object.keys(branch.properties ?? {});
    const input = { ...base };
    for (const k of props) {
      if (k in ids) input[k] = ids[k];
      if (k === "chunk_hashes") input[k] = [ids["chunk_hash"]];
      // Words of alpha's note but not the secret itself: answers echo the question, and only alpha's text holds the secret.
      if (["query", "question", "intent", "message", "task"].includes(k)) input[k] = "What code opens the alpha vault?";
    }
    out.push(input);
    // Background sessions are sessions too: the same routes with the other id.
    if (props.includes("session_id")) out.push({ ...input, session_id: ids["background_session_id"] });
  }
  return out;
}

export async function bola(base: string, alpha: string, beta: string, ids: Ids): Promise<BolaResult> {
  const r: BolaResult = { attempts: 0, leaks: 0, unrefused: 0, tampered: 0, examples: [] };
  const note = (s: string) => void (r.examples.length < 10 && r.examples.push(s));
  const call = async (
    row: Exclude<Route, { kind: "service" }>,
    input: Record<string, unknown>,
    headers: Record<string, string>,
  ) => {
    const params = new Set(pathParameters(row.path));
    const url = new URL(fillPath(row.path, input), base);
    const rest = Object.fromEntries(Object.entries(input).filter(([k]) => !params.has(k)));
    if (row.method === "GET")
      for (const [k, v] of Object.entries(rest)) url.searchParams.set(k, typeof v === "string" ? v : JSON.stringify(v));
    const body = row.method === "GET" ? null : JSON.stringify(rest);
    r.attempts++;
    return send(
      url.toString(),
      { method: row.method, headers: { ...headers, "content-type": "application/json" }, body },
      30_000,
      300,
    );
  };
  let seed = 1;
  for (const row of Object.values(routes) as Route[]) {
    if (row.kind === "service") continue;
    for (const input of foreignInputs(row, ids, seed++)) {
      const label = `${row.method} ${row.path}`;
      const foreign = await call(row, input, { authorization: `Bearer ${beta}` });
      if (foreign.status < 300 && foreign.body.includes(SECRET)) {
        r.leaks++;
        note(`${label}: beta got alpha's secret (${foreign.status})`);
      }
      const actor = await call(row, input, { authorization: `Bearer ${alpha}`, "x-svc-actor-id": "intruder" });
      if (actor.status !== 403) {
        r.unrefused++;
        note(`${label}: a foreign actor header got ${actor.status}`);
      }
      const anonymous = await call(row, input, {});
      if (anonymous.status !== 401) {
        r.unrefused++;
        note(`${label}: no token got ${anonymous.status}`);
      }
      if ("tool" in row && row.tool) {
        const rpc = JSON.stringify({
          jsonrpc: "2.0",
          id: r.attempts,
          method: "tools/call",
          params: { name: row.tool, arguments: input },
        });
        const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };
        const mcp = await send(`${base}/mcp`, {
          method: "POST",
          headers: { ...mcpHeaders, authorization: `Bearer ${beta}` },
          body: rpc,
        });
        const mcpActor = await send(`${base}/mcp`, {
          method: "POST",
          headers: { ...mcpHeaders, authorization: `Bearer ${alpha}`, "x-svc-actor-id": "intruder" },
          body: rpc,
        });
        r.attempts += 2;
        if (mcpActor.status !== 403) {
          r.unrefused++;
          note(`mcp ${row.tool}: a foreign actor header got ${mcpActor.status}`);
        }
        if (mcp.body.includes(SECRET)) {
          r.leaks++;
          note(`mcp ${row.tool}: beta got alpha's secret`);
        }
      }
    }
  }
  r.tampered = await intact(base, alpha, ids, note);
  return r;
}

/** Alpha's objects as alpha sees them after beta's calls: each one missing or changed counts. */
async function intact(base: string, alpha: string, ids: Ids, note: (s: string) => void): Promise<number> {
  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${alpha}` } });
    return { status: res.status, body: await res.text() };
  };
  const recall = await fetch(`${base}/v1/memory/recall`, {
    method: "POST",
    headers: { authorization: `Bearer ${alpha}`, "content-type": "application/json" },
    body: JSON.stringify({ query: `${SECRET} vault` }),
  });
  const checks: [string, boolean][] = [
    ["alpha's chunk is still recalled", (await recall.text()).includes(ids["chunk_hash"]!)],
    ["alpha's decision is still there", (await get(`/v1/decisions/${ids["ref"]}`)).status === 200],
    [
      "alpha's chat approval is still pending",
      (await get(`/chat/sessions/${ids["session_id"]}`)).body.includes(ids["request_id"]!),
    ],
    [
      "alpha's background session was not cancelled or paused by beta",
      !/"status":"(cancelled|paused)"/.test(
        (await get(`/sessions/${ids["background_session_id"]}`)).body.slice(0, 400),
      ),
    ],
  ];
  let broken = 0;
  for (const [what, ok] of checks)
    if (!ok) {
      broken++;
      note(`tampered: ${what} failed`);
    }
  return broken;
}
