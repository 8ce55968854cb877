// The core Memory API over HTTP (in-process): ingest, recall, forget and pack against a real SQLite vault.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Citation } from "../../src/contract/citation.ts";
import type { ForgetResponse, IngestResponse, PackResponse, RecallResponse } from "../../src/contract/memory.ts";
import { contentHash } from "../../src/domain/text/hash.ts";
import { estimateTokens } from "../../src/domain/text/tokens.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { CITATION_FIELDS } from "../helpers/citation-fields.ts";

let svc: TestService;
/** Everything ingested, by source path, to check citations against. */
let contents: Map<string, string>;

beforeEach(async () => {
  svc = await startTestService();
  contents = new Map();
});
afterEach(async () => svc.cleanup());

async function call<T>(path: string, body: unknown, status = 200): Promise<T> {
  const res = await svc.post(path, body);
  const json = (await res.json()) as T;
  expect(res.status, JSON.stringify(json)).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return json;
}

async function ingest(
  source_path: string,
  content: string,
  extra: Record<string, unknown> = {},
): Promise<IngestResponse> {
  const out = await call<IngestResponse>("/v1/memory/ingest", { source_path, content, ...extra });
  contents.set(source_path, content);
  return out;
}

const recall = (body: Record<string, unknown>) => call<RecallResponse>("/v1/memory/recall", body);
const forget = (body: Record<string, unknown>, status = 200) => call<ForgetResponse>("/v1/memory/forget", body, status);
const pack = (body: Record<string, unknown>) => call<PackResponse>("/v1/memory/pack", body);
const hashes = (refs: { chunk_hash: string }[]) => refs.map((r) => r.chunk_hash).sort();

/** SPEC "Citation": its six fields plus the event time (issue 45); the span is literal evidence from the stored source. */
function expectCitation(c: Citation): void {
  expect(Object.keys(c).sort()).toEqual([...CITATION_FIELDS]);
  expect(c.chunk_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(c.score).toBeGreaterThanOrEqual(0);
  expect(c.score).toBeLessThanOrEqual(1);
  expect(c.retrieved_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  expect(Math.abs(Date.parse(c.retrieved_at) - Date.now())).toBeLessThan(60_000);
  expect(c.anchor.length).toBeGreaterThan(0);
  expect(c.text_span.length).toBeGreaterThan(0);
  const source = contents.get(c.source_path);
  expect(source, `unknown source ${c.source_path}`).toBeDefined();
  expect(source!.includes(c.text_span)).toBe(true);
}

const section = (title: string, body: string) => `## ${title}\n\n${body}\n`;
const v1 = `# Runbook\n\n${section("Backups", "Backups run nightly with litestream to the bucket.")}\n${section("Failover", "Failover promotes the standby replica manually.")}\n${section("Alerts", "Alerts page the on-call engineer through the pager.")}`;
const v2 = `# Runbook\n\n${section("Backups", "Backups run nightly with litestream to the bucket.")}\n${section("Failover", "Failover promotes the standby replica automatically after thirty seconds.")}\n${section("Capacity", "Capacity reviews happen every quarter.")}`;

describe("ingest", () => {
  it("reports added, kept and removed chunks across a re-ingest of an edited markdown file", async () => {
    const first = await ingest("ops/runbook.md", v1);
    expect(first).toMatchObject({
      source_path: "ops/runbook.md",
      kind: "markdown",
      unchanged: false,
      chunks: 3,
      kept: [],
      removed: [],
      deduplicated: 0,
    });
    expect(first.document_hash).toBe(contentHash(v1));
    expect(first.added.map((a) => a.anchor)).toEqual(["Runbook > Backups", "Runbook > Failover", "Runbook > Alerts"]);
    const byAnchor = new Map(first.added.map((a) => [a.anchor, a.chunk_hash]));

    const second = await ingest("ops/runbook.md", v2);
    expect(second.unchanged).toBe(false);
    expect(second.chunks).toBe(3);
    // The Backups chunk (with its heading line "# Runbook") keeps its hash; edited and deleted sections are removed.
    expect(second.kept).toEqual([{ chunk_hash: byAnchor.get("Runbook > Backups"), anchor: "Runbook > Backups" }]);
    expect(hashes(second.removed)).toEqual(
      [byAnchor.get("Runbook > Failover"), byAnchor.get("Runbook > Alerts")].sort(),
    );
    expect(second.added.map((a) => a.anchor)).toEqual(["Runbook > Failover", "Runbook > Capacity"]);
    expect(second.kept.length + second.added.length).toBe(second.chunks);

    const old = await recall({ query: "pager on-call engineer alerts" });
    expect(old.hits).toEqual([]);
    const fresh = await recall({ query: "capacity reviews quarter" });
    expect(fresh.hits[0]?.anchor).toBe("Runbook > Capacity");
  });

  it("treats an identical re-ingest as unchanged and rewrites nothing", async () => {
    const first = await ingest("ops/runbook.md", v1);
    const again = await ingest("ops/runbook.md", v1);
    expect(again).toMatchObject({
      unchanged: true,
      added: [],
      removed: [],
      deduplicated: 0,
      chunks: 3,
      document_hash: first.document_hash,
    });
    expect(hashes(again.kept)).toEqual(hashes(first.added));
    const hits = (await recall({ query: "litestream backups" })).hits;
    expect(hits).toHaveLength(1);
  });

  it("counts a paragraph already stored under another path as deduplicated", async () => {
    const shared = "# Shared\n\nThe deploy key rotates every ninety days and lives in the vault.";
    const a = await ingest("a.md", `${shared}\n`);
    expect(a.deduplicated).toBe(0);
    const b = await ingest("b.md", `${shared}\n\n# Extra\n\nOnly in b: the staging cluster is in Frankfurt.\n`);
    expect(b.chunks).toBe(2);
    expect(b.deduplicated).toBe(1);
    expect(b.added.map((x) => x.chunk_hash)).toContain(a.added[0]!.chunk_hash);
    // Identical texts collapse to the first-ingested source in recall.
    const hits = (await recall({ query: "deploy key rotates vault" })).hits;
    expect(hits.filter((h) => h.chunk_hash === a.added[0]!.chunk_hash).map((h) => h.source_path)).toEqual(["a.md"]);
  });

  it("names loose text by its hash and infers kinds from the path", async () => {
    const out = await call<IngestResponse>("/v1/memory/ingest", {
      content: "A loose note about the quarterly offsite.",
    });
    expect(out.source_path).toBe(`text/${out.document_hash.slice(7, 19)}`);
    expect(out.kind).toBe("text");
    const code = await call<IngestResponse>("/v1/memory/ingest", {
      source_path: "src/a.ts",
      content: "export const answer = 42;\n",
    });
    expect(code.kind).toBe("code");
    expect(code.added[0]?.anchor).toBe("L1-L1");
  });
});

describe("recall", () => {
  beforeEach(async () => {
    await ingest(
      "notes/db.md",
      "# Databases\n\nSQLite uses a write-ahead log so readers never block writers.\n\n## Backups\n\nBackups of the SQLite file run nightly.\n",
      {
        timestamp: "2021-03-01T10:00:00Z",
      },
    );
    await ingest(
      "notes/search.md",
      "# Search\n\nBM25 ranks documents by term frequency and inverse document frequency.\n",
      { timestamp: "2023-06-15T08:30:00+02:00" },
    );
    await ingest("archive/old.txt", "The old system used a MySQL write-ahead log as well, with nightly dumps.", {
      timestamp: "2019-01-01T00:00:00Z",
    });
  });

  it("returns citations with exactly the spec's fields and literal evidence", async () => {
    const res = await recall({ query: "write-ahead log" });
    expect(res.query).toBe("write-ahead log");
    expect(res.mode).toBe("hybrid");
    expect(typeof res.took_ms).toBe("number");
    expect(res.hits.length).toBeGreaterThanOrEqual(2);
    for (const h of res.hits) {
      expectCitation(h);
      expect(h.chunk_hash).toBe(contentHash(h.text_span));
    }
    for (let i = 1; i < res.hits.length; i++) expect(res.hits[i - 1]!.score).toBeGreaterThanOrEqual(res.hits[i]!.score);
    expect(res.explain).toBeUndefined();
  });

  it("adds explain only when asked, aligned with hits", async () => {
    const res = await recall({ query: "nightly backups write-ahead", explain: true });
    expect(res.explain).toBeDefined();
    expect(res.explain).toHaveLength(res.hits.length);
    res.hits.forEach((h, i) => {
      const e = res.explain![i]!;
      expect(e.score).toBe(h.score);
      expect(e.lexical).toBeGreaterThanOrEqual(0);
      expect(e.lexical).toBeLessThanOrEqual(1);
      expect(e.dense).toBeNull();
      const logit = Object.values(e.contributions).reduce((a, b) => a + b, 0);
      expect(1 / (1 + Math.exp(-logit))).toBeCloseTo(e.score, 4);
    });
    expect((await recall({ query: "nightly", explain: false })).explain).toBeUndefined();
  });

  it("filters by source_path_prefix", async () => {
    const res = await recall({ query: "write-ahead log nightly", filters: { source_path_prefix: "notes/" } });
    expect(res.hits.length).toBeGreaterThan(0);
    expect(res.hits.every((h) => h.source_path.startsWith("notes/"))).toBe(true);
    const archive = await recall({ query: "write-ahead log nightly", filters: { source_path_prefix: "archive/" } });
    expect(archive.hits.map((h) => h.source_path)).toEqual(["archive/old.txt"]);
  });

  it("filters by since (inclusive) and until (exclusive) on the ingest timestamp", async () => {
    const q = "write-ahead log nightly BM25 term frequency";
    const sources = async (filters: Record<string, unknown>) =>
      [...new Set((await recall({ query: q, filters })).hits.map((h) => h.source_path))].sort();
    expect(await sources({})).toEqual(["archive/old.txt", "notes/db.md", "notes/search.md"]);
    expect(await sources({ since: "2021-01-01T00:00:00Z" })).toEqual(["notes/db.md", "notes/search.md"]);
    expect(await sources({ until: "2021-03-01T10:00:00Z" })).toEqual(["archive/old.txt"]);
    expect(await sources({ since: "2021-03-01T10:00:00Z", until: "2023-06-15T06:30:00Z" })).toEqual(["notes/db.md"]);
    expect(await sources({ since: "2021-03-01T11:00:00+01:00", until: "2023-06-15T06:30:00.001Z" })).toEqual([
      "notes/db.md",
      "notes/search.md",
    ]);
  });

  it("drops hits below min_score", async () => {
    const all = await recall({ query: "write-ahead log nightly backups sqlite", k: 50 });
    const scores = all.hits.map((h) => h.score);
    expect(new Set(scores).size).toBeGreaterThan(1);
    const bar = (Math.max(...scores) + Math.min(...scores)) / 2;
    const some = await recall({ query: "write-ahead log nightly backups sqlite", k: 50, filters: { min_score: bar } });
    expect(some.hits.length).toBeGreaterThan(0);
    expect(some.hits.length).toBeLessThan(all.hits.length);
    expect(some.hits.every((h) => h.score >= bar)).toBe(true);
    expect(some.hits.map((h) => h.chunk_hash)).toEqual(all.hits.filter((h) => h.score >= bar).map((h) => h.chunk_hash));
  });

  it("respects k and defaults to 10", async () => {
    for (let i = 0; i < 14; i++)
      await ingest(`bulk/${i}.txt`, `Bulk note ${i}: the widget inventory count is ${i * 3} units.`);
    expect((await recall({ query: "widget inventory", k: 3 })).hits).toHaveLength(3);
    expect((await recall({ query: "widget inventory" })).hits).toHaveLength(10);
    expect((await recall({ query: "widget inventory", k: 100 })).hits).toHaveLength(14);
    expect((await recall({ query: "widget inventory", k: 1 })).hits).toHaveLength(1);
  });

  it("returns no hits for terms nobody wrote", async () => {
    expect((await recall({ query: "zeppelin quasar" })).hits).toEqual([]);
  });
});

describe("forget", () => {
  it("forgets a source by path, idempotently, and its chunks never come back", async () => {
    const ing = await ingest(
      "notes/db.md",
      "# DB\n\nSQLite uses a write-ahead log.\n\n# Backups\n\nBackups run nightly with litestream.\n",
    );
    await ingest("notes/keep.md", "# Keep\n\nLitestream also ships the write-ahead log offsite.\n");
    const first = await forget({ source_path: "notes/db.md" });
    expect(first.already_forgotten).toBe(false);
    expect(first.removed_sources).toEqual(["notes/db.md"]);
    expect(hashes(first.removed)).toEqual(hashes(ing.added));
    expect(first.removed.every((r) => r.source_path === "notes/db.md")).toBe(true);

    const again = await forget({ source_path: "notes/db.md" });
    expect(again).toEqual({ removed: [], removed_sources: [], already_forgotten: true });

    const hits = (await recall({ query: "write-ahead log litestream nightly", k: 50 })).hits;
    expect(hits.map((h) => h.source_path)).toEqual(["notes/keep.md"]);
    const p = await pack({ intent: "write-ahead log litestream nightly" });
    expect(p.items.map((i) => i.citation.source_path)).toEqual(["notes/keep.md"]);
    expect(p.sources.map((s) => s.source_path)).toEqual(["notes/keep.md"]);
  });

  it("forgets a chunk_hash in every source that has it", async () => {
    const shared = "# Shared\n\nThe deploy key rotates every ninety days.";
    const a = await ingest("a.md", `${shared}\n`);
    await ingest("b.md", `${shared}\n\n# Other\n\nThe staging cluster runs in Frankfurt.\n`);
    const hash = a.added[0]!.chunk_hash;
    const out = await forget({ chunk_hash: hash });
    expect(out.already_forgotten).toBe(false);
    expect(out.removed.map((r) => r.source_path).sort()).toEqual(["a.md", "b.md"]);
    expect(out.removed.every((r) => r.chunk_hash === hash && r.anchor === "Shared")).toBe(true);
    // a.md had nothing else; b.md still has its other chunk.
    expect(out.removed_sources).toEqual(["a.md"]);

    const hits = (await recall({ query: "deploy key rotates staging cluster", k: 50 })).hits;
    expect(hits.some((h) => h.chunk_hash === hash)).toBe(false);
    expect(hits.map((h) => h.source_path)).toEqual(["b.md"]);
    const p = await pack({ intent: "deploy key rotates ninety days" });
    expect(p.items.some((i) => i.citation.chunk_hash === hash)).toBe(false);
    expect(p.sources.some((s) => s.citation.chunk_hash === hash)).toBe(false);

    expect(await forget({ chunk_hash: hash })).toEqual({ removed: [], removed_sources: [], already_forgotten: true });
    // The path whose last chunk went is forgotten too.
    expect(await forget({ source_path: "a.md" })).toEqual({
      removed: [],
      removed_sources: [],
      already_forgotten: true,
    });
  });

  it("answers 404 not_found for a target that never existed", async () => {
    await ingest("a.md", "# A\n\nSomething.\n");
    const byPath = await forget({ source_path: "never/seen.md" }, 404);
    expect(byPath).toMatchObject({ error: { code: "not_found" } });
    const byHash = await forget({ chunk_hash: contentHash("never ingested") }, 404);
    expect(byHash).toMatchObject({ error: { code: "not_found" } });
  });

  it("re-ingesting a forgotten source makes it recallable and forgettable again", async () => {
    await ingest("n.md", "# N\n\nThe mango harvest starts in May.\n");
    await forget({ source_path: "n.md" });
    await ingest("n.md", "# N\n\nThe mango harvest starts in May.\n");
    expect((await recall({ query: "mango harvest" })).hits).toHaveLength(1);
    const out = await forget({ source_path: "n.md" });
    expect(out.already_forgotten).toBe(false);
    expect(out.removed).toHaveLength(1);
  });
});

describe("pack", () => {
  const topics = ["replication", "backups", "indexing", "caching", "sharding", "monitoring"];
  const paragraph = (topic: string, i: number) =>
    `The ${topic} design note ${i} covers how the storage engine handles ${topic} under load, with numbers from run ${i * 7}. ` +
    `Operators tune ${topic} thresholds per cluster and review them after incidents.`;

  beforeEach(async () => {
    for (const [t, topic] of topics.entries())
      await ingest(
        `design/${topic}.md`,
        `# ${topic}\n\n` +
          Array.from({ length: 6 }, (_, i) => `## Part ${i}\n\n${paragraph(topic, t * 10 + i)}\n`).join("\n"),
      );
  });

  it("never exceeds budget_tokens, summaries included, for many budgets", async () => {
    for (const budget of [64, 65, 80, 100, 128, 200, 333, 500, 1000, 2000]) {
      const p = await pack({
        intent: "storage engine replication backups caching under load",
        budget_tokens: budget,
        max_items: 100,
      });
      expect(p.budget_tokens).toBe(budget);
      expect(p.used_tokens).toBeLessThanOrEqual(budget);
      const accounted =
        p.items.reduce((s, i) => s + i.tokens, 0) + p.sources.reduce((s, x) => s + estimateTokens(x.summary), 0);
      expect(p.used_tokens).toBe(accounted);
      for (const i of p.items) expect(i.tokens).toBe(estimateTokens(i.citation.text_span));
      if (budget >= 200) expect(p.items.length).toBeGreaterThan(0);
    }
    const small = await pack({ intent: "replication backups caching", budget_tokens: 100 });
    expect(small.dropped.over_budget).toBeGreaterThan(0);
  });

  it("respects max_items", async () => {
    for (const max_items of [1, 2, 5]) {
      const p = await pack({ intent: "storage engine under load thresholds", max_items, budget_tokens: 32_000 });
      expect(p.items).toHaveLength(max_items);
    }
  });

  it("cites every item and summary from stored sources, grouped by source in document order", async () => {
    const p = await pack({ intent: "replication thresholds after incidents", budget_tokens: 1500, max_items: 12 });
    expect(p.intent).toBe("replication thresholds after incidents");
    expect(p.items.length).toBeGreaterThan(1);
    for (const i of p.items) expectCitation(i.citation);
    const order = p.items.map((i) => i.citation.source_path);
    // Grouped: once a source's run ends it never reappears.
    expect(order.filter((s, i) => i === 0 || s !== order[i - 1])).toEqual([...new Set(order)]);
    for (const src of new Set(order)) {
      const offsets = p.items
        .filter((i) => i.citation.source_path === src)
        .map((i) => contents.get(src)!.indexOf(i.citation.text_span));
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    }
    expect(p.sources.map((s) => s.source_path).sort()).toEqual([...new Set(order)].sort());
    for (const s of p.sources) {
      expectCitation(s.citation);
      expect(s.citation.source_path).toBe(s.source_path);
      expect(s.citation.text_span).toBe(s.summary);
      expect(
        p.items.some(
          (i) => i.citation.chunk_hash === s.citation.chunk_hash && i.citation.text_span.includes(s.summary),
        ),
      ).toBe(true);
    }
  });

  it("keeps one item for near-duplicate paragraphs in two files", async () => {
    const text = "The zebra migration dashboard refreshes every five minutes from the telemetry pipeline.";
    await ingest("dup/one.txt", text);
    await ingest("dup/two.txt", text.replace("five minutes", "5 minutes"));
    const p = await pack({ intent: "zebra migration dashboard telemetry", filters: { source_path_prefix: "dup/" } });
    expect(p.items).toHaveLength(1);
    expect(p.dropped.near_duplicates).toBe(1);
    expect(p.sources).toHaveLength(1);
  });

  it("applies recall filters", async () => {
    const p = await pack({ intent: "storage engine under load", filters: { source_path_prefix: "design/caching" } });
    expect(p.items.length).toBeGreaterThan(0);
    expect(p.items.every((i) => i.citation.source_path === "design/caching.md")).toBe(true);
  });
});

describe("atomic replace, seen by concurrent readers", () => {
  it("recall never mixes chunks of the old and new version of a document", async () => {
    const version = (tag: string, n: number) =>
      `# Doc\n\n` +
      Array.from(
        { length: n },
        (_, i) => `## S${i}\n\nSection ${i} of the ${tag} edition mentions ${tag} and the shared word lighthouse.\n`,
      ).join("\n");
    await ingest("doc.md", version("aardvark", 400));
    // The index loaded first (its load may await a saved snapshot's read): the readers below start on the old version.
    expect((await recall({ query: "lighthouse aardvark", k: 1 })).hits).toHaveLength(1);
    let done = false;
    const writing = svc
      .post("/v1/memory/ingest", { source_path: "doc.md", content: version("zebu", 600) })
      .then((r) => {
        done = true;
        return r;
      });
    const seen = { old: 0, fresh: 0 };
    // In-process requests resolve on microtasks; yield a macrotask each round so the ingest's own yields can progress.
    // Three readers at once: on PostgreSQL a read is round trips, and one reader alone may not overlap a quick write.
    const reader = async () => {
      for (let reads = 0; reads < 10_000 && !done; reads++) {
        await new Promise((r) => setImmediate(r));
        const hits = (await recall({ query: "lighthouse aardvark zebu", k: 100 })).hits;
        const old = hits.some((h) => h.text_span.includes("aardvark"));
        const fresh = hits.some((h) => h.text_span.includes("zebu"));
        expect(old && fresh, "a reader saw both versions").toBe(false);
        expect(hits).toHaveLength(100);
        if (old) seen.old++;
        if (fresh) seen.fresh++;
      }
    };
    await Promise.all([reader(), reader(), reader()]);
    expect(done).toBe(true);
    expect((await writing).status).toBe(200);
    const after = (await recall({ query: "lighthouse aardvark zebu", k: 100 })).hits;
    expect(after.every((h) => h.text_span.includes("zebu"))).toBe(true);
    expect(seen.old).toBeGreaterThan(0);
  });
});

describe("source", () => {
  const read = (source_path: string) => svc.get("/v1/memory/source", { source_path });

  it("returns the stored text with chunk offsets, so each citation's span is found at its anchor", async () => {
    await ingest("ops/runbook.md", v1);
    const hit = (await recall({ query: "standby replica failover" })).hits[0]!;
    const res = await read(hit.source_path);
    expect(res.status).toBe(200);
    const source = (await res.json()) as {
      content: string;
      kind: string;
      chunks: { chunk_hash: string; anchor: string; start: number; end: number }[];
    };
    expect(source.kind).toBe("markdown");
    const chunk = source.chunks.find((c) => c.chunk_hash === hit.chunk_hash)!;
    expect(chunk.anchor).toBe(hit.anchor);
    const text = source.content.slice(chunk.start, chunk.end);
    expect(contentHash(text)).toBe(hit.chunk_hash);
    expect(text.includes(hit.text_span)).toBe(true);
  });

  it("is not_found for an unknown or forgotten source", async () => {
    expect((await read("nowhere.md")).status).toBe(404);
    await ingest("ops/runbook.md", v1);
    await forget({ source_path: "ops/runbook.md" });
    const res = await read("ops/runbook.md");
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});
