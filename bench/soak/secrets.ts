// Phase 6: the tokens issued during the run, looked for wherever a service writes: its log, its database (audit events,
// session events, records, traces), error bodies and /metrics.
import Database from "better-sqlite3";

export interface SecretsResult {
  tokens: number;
  placesSearched: string[];
  found: string[];
}

export async function secrets(opts: { tokens: readonly string[]; logs: readonly string[]; dbFiles: readonly string[]; base: string; token: string }): Promise<SecretsResult> {
  const found: string[] = [];
  const places: [string, string][] = opts.logs.map((l, i) => [`service log ${i + 1}`, l]);
  for (const file of opts.dbFiles) {
    const db = new Database(file, { readonly: true });
    try {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('tokens')").all() as { name: string }[]).map((t) => t.name);
      for (const t of tables) {
        const cols = (db.prepare(`SELECT name, type FROM pragma_table_info(?)`).all(t) as { name: string; type: string }[]).filter((c) => c.type === "TEXT").map((c) => `"${c.name}"`);
        if (cols.length) places.push([`${file.split("/").slice(-2).join("/")}: ${t}`, (db.prepare(`SELECT ${cols.join(" || ' ' || ")} AS v FROM "${t}"`).all() as { v: string | null }[]).map((r) => r.v ?? "").join("\n")]);
      }
    } finally {
      db.close();
    }
  }
  // Error bodies a client with a token sees when it gets things wrong, and the metrics page.
  const h = { authorization: `Bearer ${opts.token}`, "content-type": "application/json" };
  for (const [label, res] of [
    ["error body: bad JSON", await fetch(`${opts.base}/v1/memory/recall`, { method: "POST", headers: h, body: "{" })],
    ["error body: foreign actor", await fetch(`${opts.base}/v1/memory/recall`, { method: "POST", headers: { ...h, "x-svc-actor-id": "nobody" }, body: "{}" })],
    ["error body: unknown session", await fetch(`${opts.base}/sessions/ses_nope`, { headers: h })],
    ["error body: revoked-looking token", await fetch(`${opts.base}/v1/memory/recall`, { method: "POST", headers: { ...h, authorization: `Bearer ${opts.token}x` }, body: "{}" })],
    ["metrics", await fetch(`${opts.base}/metrics`)],
  ] as const)
    places.push([label, await res.text()]);
  for (const [label, text] of places) for (const t of opts.tokens) if (text.includes(t)) found.push(label);
  return { tokens: opts.tokens.length, placesSearched: places.map(([l]) => l), found: [...new Set(found)] };
}
