// Phase 4: the abuse limits of a service run with its defaults: the per-token request rate, a body over the limit on
// every POST route, result sizes past their maximum, slow clients holding connections, and open streams per token.
import { connect, type Socket } from "node:net";
import { z } from "zod";
import type { Route } from "../../src/contract/route.ts";
import { limits } from "../../src/contract/limits.ts";
import { fillPath, routes } from "../../src/contract/routes.ts";
import { round, summarize, type LatencySummary } from "../lib/stats.ts";
import type { Schema } from "./arbitraries.ts";
import type { Serve } from "./serve.ts";
import { isErrorEnvelope, send } from "./wire.ts";

export interface AbuseResult {
  rate: { sent: number; accepted: number; refused429: number; withRetryAfter: number; otherStatus: number };
  /** closedEarly: the connection closed before the 413 could be read (the body was refused unread). */
  oversizeBodies: { routes: number; refused413: number; closedEarly: number };
  resultBounds: { fields: number; refused400: number };
  slowClients: {
    connections: number;
    closedWithinSeconds: number | null;
    servedMeanwhile: LatencySummary;
    servedErrors: number;
  };
  streams: { opened: number; accepted: number; refused429: number; limit: number };
  examples: string[];
}

const SIZE_FIELDS = ["k", "limit", "max_items", "budget_tokens"];

export async function abuse(
  srv: Serve,
  token: string,
  other: string,
  opts: { slowConnections: number; headersTimeoutMs: number; streamsPerToken: number },
): Promise<AbuseResult> {
  const examples: string[] = [];
  const note = (s: string) => void (examples.length < 10 && examples.push(s));
  const auth = (t: string) => ({ authorization: `Bearer ${t}`, "content-type": "application/json" });

  // Rate: 16 connections' worth of recalls at once, as fast as they come back, for one token.
  const rate = { sent: 0, accepted: 0, refused429: 0, withRetryAfter: 0, otherStatus: 0 };
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = 0; i < 40; i++) {
        const res = await fetch(`${srv.url}/v1/memory/recall`, {
          method: "POST",
          headers: auth(token),
          body: JSON.stringify({ query: "lighthouse" }),
        });
        await res.text();
        rate.sent++;
        if (res.ok) rate.accepted++;
        else if (res.status === 429) {
          rate.refused429++;
          if (res.headers.get("retry-after")) rate.withRetryAfter++;
        } else {
          rate.otherStatus++;
          note(`rate: ${res.status}`);
        }
      }
    }),
  );
  await new Promise((r) => setTimeout(r, 2_500)); // the bucket refills

  // Bodies over the limit on every POST route (and /mcp): 413, the envelope, nothing read past the limit.
  const big = "x".repeat(limits.maxBodyBytes + 1024);
  const posts = (Object.values(routes) as Route[]).filter(
    (r) => r.method === "POST" && (r.kind !== "service" || r.path === "/mcp"),
  );
  let refused413 = 0;
  let closedEarly = 0;
  for (const row of posts) {
    const url = new URL(fillPath(row.path, { session_id: "x", request_id: "x" }), srv.url).toString();
    const res = await send(url, {
      method: "POST",
      headers: { ...auth(other), accept: "application/json, text/event-stream" },
      body: `{"content":"${big}"}`,
    }).catch((err: unknown) => {
      // The server answered by the declared length and closed while the body was still going out: refused, unread.
      const code = (err as { cause?: { code?: string } }).cause?.code;
      if (code === "EPIPE" || code === "ECONNRESET") return null;
      throw err;
    });
    if (res === null) closedEarly++;
    else if (res.status === 413 && isErrorEnvelope(res.body)) refused413++;
    else note(`oversize body to ${row.path}: ${res.status} ${res.body.slice(0, 120)}`);
  }
  await new Promise((r) => setTimeout(r, 1_000));

  // Every size field of every route past its maximum: 400 invalid_request, not a huge answer.
  let fields = 0;
  let refused400 = 0;
  for (const row of Object.values(routes) as Route[]) {
    if (row.kind === "service") continue;
    const props = (z.toJSONSchema(row.input, { io: "input", unrepresentable: "any" }) as Schema).properties ?? {};
    for (const f of SIZE_FIELDS.filter((k) => props[k]?.maximum !== undefined || props[k]?.anyOf)) {
      fields++;
      const input = { [f]: 1_000_000, query: "lighthouse", intent: "lighthouse", question: "lighthouse?" };
      const url = new URL(fillPath(row.path, { session_id: "x" }), srv.url);
      if (row.method === "GET") url.searchParams.set(f, "1000000");
      const res = await send(url.toString(), {
        method: row.method,
        headers: auth(other),
        body: row.method === "GET" ? null : JSON.stringify(input),
      });
      if (res.status === 400) refused400++;
      else note(`${f}=1e6 on ${row.path}: ${res.status}`);
      if (fields % 50 === 0) await new Promise((r) => setTimeout(r, 1_000));
    }
  }

  // Slow clients: connections that drip header lines and never finish, while ordinary clients keep calling.
  const slow: Socket[] = [];
  const closedAt: Promise<number>[] = [];
  const t0 = performance.now();
  for (let i = 0; i < opts.slowConnections; i++) {
    const s = connect(srv.port, "127.0.0.1");
    s.on("error", () => {});
    s.write("POST /v1/memory/recall HTTP/1.1\r\nHost: x\r\n");
    closedAt.push(new Promise((r) => s.once("close", () => r(performance.now() - t0))));
    slow.push(s);
  }
  const drip = setInterval(() => slow.forEach((s) => s.writable && s.write("X-Slow: 1\r\n")), 500);
  const served: number[] = [];
  let servedErrors = 0;
  const until = performance.now() + opts.headersTimeoutMs + 2_000;
  while (performance.now() < until) {
    const a = performance.now();
    const res = await fetch(`${srv.url}/v1/memory/recall`, {
      method: "POST",
      headers: auth(other),
      body: JSON.stringify({ query: "keeper" }),
    }).catch(() => null);
    if (res?.ok) served.push(performance.now() - a);
    else servedErrors++;
    await res?.text();
    await new Promise((r) => setTimeout(r, 20));
  }
  const allClosed = await Promise.race([
    Promise.all(closedAt),
    new Promise<null>((r) => setTimeout(() => r(null), 15_000)),
  ]);
  clearInterval(drip);
  slow.forEach((s) => s.destroy());

  // Open streams per token: a few more than the limit, held open together.
  const session = (
    (await (await fetch(`${srv.url}/chat/sessions`, { method: "POST", headers: auth(token), body: "{}" })).json()) as {
      session_id: string;
    }
  ).session_id;
  const aborts: AbortController[] = [];
  const statuses = await Promise.all(
    Array.from({ length: opts.streamsPerToken + 8 }, async () => {
      const a = new AbortController();
      aborts.push(a);
      const res = await fetch(`${srv.url}/sessions/${session}/events/stream`, {
        headers: auth(token),
        signal: a.signal,
      });
      if (res.status !== 200) await res.text();
      return res.status;
    }),
  );
  aborts.forEach((a) => a.abort());

  return {
    rate,
    oversizeBodies: { routes: posts.length, refused413, closedEarly },
    resultBounds: { fields, refused400 },
    slowClients: {
      connections: opts.slowConnections,
      closedWithinSeconds: allClosed ? round(Math.max(...allClosed) / 1000, 1) : null,
      servedMeanwhile: summarize(served),
      servedErrors,
    },
    streams: {
      opened: statuses.length,
      accepted: statuses.filter((s) => s === 200).length,
      refused429: statuses.filter((s) => s === 429).length,
      limit: opts.streamsPerToken,
    },
    examples,
  };
}
