// Shared pieces of the grounded-answer, stream, audit and eval tests: a small corpus, JSON/SSE helpers, a mutable clock.
import { expect } from "vitest";
import type { z } from "zod";
import { Citation } from "../../src/contract/citation.ts";
import type { AuditEvent, AuditResponse } from "../../src/contract/audit.ts";
import type { InsufficientEvidence } from "../../src/contract/grounded.ts";
import type { Clock } from "../../src/ports/clock.ts";
import type { Embedder } from "../../src/ports/embedding.ts";
import type { TestService } from "../helpers/runtime.ts";
import { CITATION_FIELDS } from "../helpers/citation-fields.ts";

/** Facts with one unambiguous short answer each (a person, a year, a count). */
export const CORPUS: Readonly<Record<string, string>> = {
  "history/lighthouse.md":
    "# Lighthouse\n\nThe Varenholm lighthouse was designed by Ingrid Solberg. Construction of the lighthouse finished in 1887 after four years of work.\n\n" +
    "## Keepers\n\nThe lighthouse had 14 keepers over its working life. The last keeper left in March 1962.\n",
  "notes/bakery.md":
    "# Bakery\n\nThe Copperleaf bakery opened on Mill Street. Its sourdough starter was brought from Lyon by Marguerite Dubois.\n",
  "ops/oncall.txt":
    "The on-call rotation for the billing cluster is owned by Tomasz Wierzbicki.\nBilling database backups run every 6 hours.\n",
};

/** Question -> the exact short span the extractive answer should be. */
export const FACTOIDS: readonly { question: string; answer: string; type: string; source: string }[] = [
  {
    question: "Who designed the Varenholm lighthouse?",
    answer: "Ingrid Solberg",
    type: "person",
    source: "history/lighthouse.md",
  },
  {
    question: "When did construction of the lighthouse finish?",
    answer: "1887",
    type: "date",
    source: "history/lighthouse.md",
  },
  {
    question: "How many keepers did the lighthouse have?",
    answer: "14",
    type: "number",
    source: "history/lighthouse.md",
  },
  {
    question: "Who brought the sourdough starter from Lyon?",
    answer: "Marguerite Dubois",
    type: "person",
    source: "notes/bakery.md",
  },
  { question: "When did the last keeper leave?", answer: "March 1962", type: "date", source: "history/lighthouse.md" },
  {
    question: "Who owns the on-call rotation for the billing cluster?",
    answer: "Tomasz Wierzbicki",
    type: "person",
    source: "ops/oncall.txt",
  },
];

/** Nothing in CORPUS shares a content word with this. */
export const UNRELATED = "What is the boiling point of mercury in kelvin?";

export async function ingestCorpus(
  svc: TestService,
  corpus: Readonly<Record<string, string>> = CORPUS,
  headers: Record<string, string> = {},
): Promise<void> {
  for (const [source_path, content] of Object.entries(corpus)) {
    const res = await svc.post("/v1/memory/ingest", { source_path, content }, headers);
    expect(res.status, await res.clone().text()).toBe(200);
  }
}

/** Reads a JSON body, asserting status and content type first (the body is in the failure message). */
export async function json<T>(res: Response | Promise<Response>, status: number): Promise<T> {
  const r = await res;
  const text = await r.text();
  expect(r.status, text).toBe(status);
  expect(r.headers.get("content-type")).toMatch(/^application\/json/);
  return JSON.parse(text) as T;
}

/** details of a 422 insufficient_evidence error. */
export type InsufficientDetails = z.infer<typeof InsufficientEvidence>;

export interface ErrorEnvelope<D = unknown> {
  error: { code: string; message: string; details?: D };
}

export function get(
  svc: TestService,
  path: string,
  token = svc.token,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(svc.app.request(path, { headers: { authorization: `Bearer ${token}`, ...headers } }));
}

/** GET /v1/audit/event_log with these query parameters. */
export function auditQuery(
  svc: TestService,
  params: Record<string, string | number>,
  token = svc.token,
): Promise<Response> {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  return get(svc, `/v1/audit/event_log?${qs.toString()}`, token);
}

export async function audit(
  svc: TestService,
  params: Record<string, string | number>,
  token = svc.token,
): Promise<AuditResponse> {
  return json<AuditResponse>(auditQuery(svc, params, token), 200);
}

/** Every event the filter matches, following next_cursor until it is null. */
export async function auditAll(
  svc: TestService,
  params: Record<string, string | number> = {},
  token = svc.token,
): Promise<AuditEvent[]> {
  const out: AuditEvent[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 10_000; pages++) {
    const page: AuditResponse = await audit(svc, { ...params, ...(cursor ? { cursor } : {}) }, token);
    out.push(...page.events);
    cursor = page.next_cursor;
    if (!cursor) return out;
  }
  throw new Error("paging did not end");
}

/** SPEC "Citation": valid fields, and the span is literal evidence from the stored source. */
export function expectGroundedCitation(c: unknown, corpus: Readonly<Record<string, string>> = CORPUS): void {
  const parsed = Citation.parse(c);
  const keys = Object.keys(c as object).filter((k) => k !== "times"); // time expressions, only where the span has some
  expect(keys.sort()).toEqual([...CITATION_FIELDS]);
  expect(parsed.text_span.length).toBeGreaterThan(0);
  const source = corpus[parsed.source_path];
  expect(source, `unknown source ${parsed.source_path}`).toBeDefined();
  expect(
    source!.includes(parsed.text_span),
    `${JSON.stringify(parsed.text_span)} is not in ${parsed.source_path}`,
  ).toBe(true);
}

/** A clock tests move by hand, for since/until filters. */
export function manualClock(
  start = Date.parse("2025-03-01T12:00:00.000Z"),
): Clock & { set(ms: number): void; advance(ms: number): void; ms(): number } {
  let now = start;
  return {
    now: () => new Date(now),
    set: (ms) => void (now = ms),
    advance: (ms) => void (now += ms),
    ms: () => now,
  };
}

/** A deterministic toy embedder; `delayMs` makes every embed call (so a run's retrieve step) slow on demand. */
export function slowEmbedder(): Embedder & { delayMs: number } {
  const e = {
    id: "test-slow-4d",
    dimensions: 4,
    delayMs: 0,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      if (e.delayMs) await new Promise((r) => setTimeout(r, e.delayMs));
      return texts.map((t) => Float32Array.from([1 + (t.length % 7), 1 + (t.length % 3), 2, 3]));
    },
  };
  return e;
}

export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: unknown;
}

/** Parses a complete text/event-stream body (the fields this service sends: event, data, id). */
export function parseSse(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (!block.trim()) continue;
    let id: string | undefined;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      const m = /^([^:]*):? ?(.*)$/.exec(line);
      if (!m) continue;
      const [, field, value = ""] = m;
      if (field === "id") id = value;
      else if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    out.push({ id, event, data: data.length ? (JSON.parse(data.join("\n")) as unknown) : undefined });
  }
  return out;
}

/** Reads an SSE body until `count` complete events have arrived; returns them and the reader (still open). */
export async function readEvents(
  res: Response,
  count: number,
): Promise<{ events: SseEvent[]; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const complete = buffered.lastIndexOf("\n\n");
    const events = complete >= 0 ? parseSse(buffered.slice(0, complete)) : [];
    if (events.length >= count) return { events, reader };
    const { done, value } = await reader.read();
    if (done) throw new Error(`stream ended after ${events.length} events`);
    buffered += decoder.decode(value, { stream: true });
  }
}

/** The events one answered grounded run leaves in the audit log, in order. */
export const ANSWERED_TRAJECTORY = [
  "grounded.request",
  "grounded.step.retrieve",
  "grounded.step.score_candidates",
  "grounded.step.select",
  "grounded.step.answer",
  "grounded.outcome",
];
