// Phase 6: the tokens issued during the run, looked for wherever a service writes: its log, its database (audit events,
// session events, records, traces), error bodies and /metrics.
import type { StoreReader } from "./fingerprint.ts";

export interface SecretsResult {
  tokens: number;
  placesSearched: string[];
  found: string[];
}

export async function secrets(opts: {
  tokens: readonly string[];
  logs: readonly string[];
  stores: readonly [string, StoreReader][];
  base: string;
  token: string;
}): Promise<SecretsResult> {
  const found: string[] = [];
  const places: [string, string][] = opts.logs.map((l, i) => [`service log ${i + 1}`, l]);
  for (const [name, reader] of opts.stores)
    for (const [table, text] of await reader.texts()) places.push([`${name}: ${table}`, text]);
  // Error bodies a client with a token sees when it gets things wrong, and the metrics page.
  const h = { authorization: `Bearer ${opts.token}`, "content-type": "application/json" };
  for (const [label, res] of [
    ["error body: bad JSON", await fetch(`${opts.base}/v1/memory/recall`, { method: "POST", headers: h, body: "{" })],
    [
      "error body: foreign actor",
      await fetch(`${opts.base}/v1/memory/recall`, {
        method: "POST",
        headers: { ...h, "x-svc-actor-id": "nobody" },
        body: "{}",
      }),
    ],
    ["error body: unknown session", await fetch(`${opts.base}/sessions/ses_nope`, { headers: h })],
    [
      "error body: revoked-looking token",
      await fetch(`${opts.base}/v1/memory/recall`, {
        method: "POST",
        headers: { ...h, authorization: `Bearer ${opts.token}x` },
        body: "{}",
      }),
    ],
    ["metrics", await fetch(`${opts.base}/metrics`)],
  ] as const)
    places.push([label, await res.text()]);
  for (const [label, text] of places) for (const t of opts.tokens) if (text.includes(t)) found.push(label);
  return { tokens: opts.tokens.length, placesSearched: places.map(([l]) => l), found: [...new Set(found)] };
}
