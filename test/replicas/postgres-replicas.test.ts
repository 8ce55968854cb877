// Two `smriti serve` processes on one PostgreSQL database: what one acknowledges the other serves at once (recall,
// forget), a session stream started on one resumes on the other with Last-Event-ID, concurrent writes on both keep one
// verifiable audit chain, and a lost database answers 503 store_unavailable until it is back. Runs in the postgres
// project only (vitest.config.ts), which exists when a PostgreSQL server does.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSse, type SseEvent } from "../../src/client/sse.ts";
import { cliEnv, runCli, runJsonHere, startServe, type RunningServe } from "../cli/cli-helpers.ts";
import { catalogEnv } from "../helpers/catalog.ts";
import { postgresBinDir, startTestCluster, type TestCluster } from "../helpers/postgres-cluster.ts";
import { freshSchemaUrl } from "../helpers/postgres.ts";

interface Replica extends RunningServe {
  call(path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** The Authorization header value its calls send. */
  headersToken: string;
}

const root = mkdtempSync(join(tmpdir(), "smriti-replicas-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A token made through the CLI on the database, then N replicas serving it, each with its own data directory. */
async function startReplicas(
  url: string,
  n: number,
  label: string,
  heartbeatMs = 200,
): Promise<{ replicas: Replica[]; env: NodeJS.ProcessEnv; token: string }> {
  // Sessions in the serving processes (no session process): the tests name the replica whose process runs a session.
  const env = cliEnv({
    SMRITI_DATABASE_URL: url,
    SMRITI_SESSION_HEARTBEAT_MS: String(heartbeatMs),
    SMRITI_SESSION_PROCESS: "0",
    ...catalogEnv(),
  });
  const created = await runJsonHere<{ token: string }>(
    ["token", "create", "--json", "--scope", "read,write,execute,admin", "--data", join(root, `${label}-0`)],
    { env },
  );
  const replicas = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const serve = await startServe(join(root, `${label}-${i}`), env);
      const call = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
        fetch(`${serve.url}${path}`, {
          method: body === undefined ? "GET" : "POST",
          headers: { authorization: `Bearer ${created.token}`, "content-type": "application/json", ...headers },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      return { ...serve, call, headersToken: `Bearer ${created.token}` };
    }),
  );
  return { replicas, env, token: created.token };
}

const json = async <T>(res: Response | Promise<Response>, status = 200): Promise<T> => {
  const r = await res;
  const text = await r.text();
  expect(r.status, text).toBe(status);
  return JSON.parse(text) as T;
};
const hitsOf = async (r: Replica, query: string) =>
  (await json<{ hits: { source_path: string }[] }>(r.call("/v1/memory/recall", { query, mode: "lexical" }))).hits;

async function readEvents(res: Response): Promise<SseEvent[]> {
  expect(res.status).toBe(200);
  const out: SseEvent[] = [];
  for await (const e of parseSse(res.body!)) out.push(e);
  return out;
}

describe("two replicas on one PostgreSQL database", { timeout: 120_000 }, () => {
  let a: Replica;
  let b: Replica;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    const started = await startReplicas(await freshSchemaUrl(), 2, "pair");
    [a, b] = started.replicas as [Replica, Replica];
    env = started.env;
  });
  afterAll(async () => Promise.all([a?.stop(), b?.stop()]));

  it("serves a write acknowledged by one replica on the next request to the other, both ways", async () => {
    for (let i = 0; i < 10; i++) {
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
      const term = `quillotine${i}x`;
      await json(
        writer.call("/v1/memory/ingest", {
          source_path: `notes/ryw-${i}.md`,
          content: `# Note ${i}\n\nThe ${term} ledger closes at dusk.\n`,
        }),
      );
      expect((await hitsOf(reader, term)).map((h) => h.source_path)).toEqual([`notes/ryw-${i}.md`]);
    }
  });

  it("never serves what the other replica forgot, and a re-ingest replaces atomically for both", async () => {
    await json(
      a.call("/v1/memory/ingest", {
        source_path: "notes/forget.md",
        content: "# F\n\nThe zanzibarite vault opens at noon.\n",
      }),
    );
    expect(await hitsOf(b, "zanzibarite")).toHaveLength(1);
    await json(b.call("/v1/memory/forget", { source_path: "notes/forget.md" }));
    expect(await hitsOf(a, "zanzibarite")).toEqual([]);
    expect(await hitsOf(b, "zanzibarite")).toEqual([]);

    await json(
      a.call("/v1/memory/ingest", { source_path: "notes/edition.md", content: "# E\n\nEdition marmalite one.\n" }),
    );
    await json(
      b.call("/v1/memory/ingest", { source_path: "notes/edition.md", content: "# E\n\nEdition periwinklite two.\n" }),
    );
    for (const r of [a, b]) {
      expect(await hitsOf(r, "marmalite")).toEqual([]);
      expect(await hitsOf(r, "periwinklite")).toHaveLength(1);
    }
  });

  it("keeps one verifiable audit chain under concurrent writes on both replicas", async () => {
    const writes = Array.from({ length: 30 }, (_, i) =>
      json(
        (i % 2 === 0 ? a : b).call("/v1/memory/ingest", {
          source_path: `notes/busy-${i}.md`,
          content: `# Busy ${i}\n\nConcurrent write number ${i}.\n`,
        }),
      ),
    );
    await Promise.all(writes);
    const res = await runCli(["audit", "verify", "--json", "--data", join(root, "pair-0")], { env });
    expect(res.code, res.stderr).toBe(0);
    const [result] = JSON.parse(res.stdout) as { events: number; break: unknown }[];
    expect(result!.break).toBeNull();
    expect(result!.events).toBe(10 + 4 + 30); // every ingest and forget of this describe, each once
  });

  it("resumes a session stream on the other replica with Last-Event-ID: nothing lost, nothing repeated", async () => {
    const { session_id: sid } = await json<{ session_id: string }>(a.call("/chat/sessions", {}));
    const turn = await readEvents(
      await a.call(`/chat/sessions/${sid}/messages`, { message: "What do we know about the quillotine3x ledger?" }),
    );
    const all = await readEvents(await a.call(`/sessions/${sid}/events/stream?follow=false`));
    expect(all.length).toBeGreaterThan(5);
    expect(turn.length).toBeGreaterThan(0);
    const cut = Math.floor(all.length / 2);
    const rest = await readEvents(
      await b.call(`/sessions/${sid}/events/stream?follow=false`, undefined, { "last-event-id": all[cut - 1]!.id! }),
    );
    expect([...all.slice(0, cut), ...rest].map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it("delivers to a live stream on one replica the events another replica writes", async () => {
    const { session_id: sid } = await json<{ session_id: string }>(a.call("/chat/sessions", {}));
    const follower = new AbortController();
    const seen: SseEvent[] = [];
    const following = (async () => {
      const res = await fetch(`${b.url}/sessions/${sid}/events/stream`, {
        headers: { authorization: a.headersToken },
        signal: follower.signal,
      });
      try {
        for await (const e of parseSse(res.body!)) seen.push(e);
      } catch {
        // aborted below
      }
    })();
    const turn = await readEvents(
      await a.call(`/chat/sessions/${sid}/messages`, { message: "What do we know about the quillotine5x ledger?" }),
    );
    const deadline = Date.now() + 10_000; // the follower polls the log every second besides its own replica's wake-ups
    while (!seen.some((e) => e.id === turn.at(-1)!.id) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    follower.abort();
    await following;
    const ids = seen.map((e) => e.id);
    for (const e of turn) expect(ids).toContain(e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("background runs across replicas", { timeout: 120_000 }, () => {
  type Detail = { session: { status: string; process_id: string; attempt_count: number } };
  let a: Replica;
  let b: Replica;
  let c: Replica;
  beforeAll(async () => {
    // Beats of 1 s (a run is stale after 3 s): a replica slowed by a busy machine must not look dead to the others.
    [a, b, c] = (await startReplicas(await freshSchemaUrl(), 3, "leases", 1_000)).replicas as [
      Replica,
      Replica,
      Replica,
    ];
  });
  afterAll(async () => Promise.all([a?.stop(), b?.stop(), c?.stop()]));

  const start = async (r: Replica, command: string) =>
    (
      await json<{ session: { session_id: string } }>(
        r.call("/sessions", { task: "t", engine: "command", command: ["sh", "-c", command], approval_mode: "never" }),
      )
    ).session.session_id;
  const detail = (r: Replica, sid: string) => json<Detail>(r.call(`/sessions/${sid}`));
  async function until(r: Replica, sid: string, done: (d: Detail) => boolean, ms = 20_000): Promise<Detail> {
    const deadline = Date.now() + ms;
    let d = await detail(r, sid);
    while (!done(d) && Date.now() < deadline)
      d = await (await new Promise((res) => setTimeout(res, 50)), detail(r, sid));
    return d;
  }

  it("runs each session exactly once, whichever replica it was started on", async () => {
    const sids = await Promise.all(Array.from({ length: 9 }, (_, i) => start([a, b, c][i % 3]!, "sleep 0.3")));
    for (const sid of sids) {
      const d = await until(a, sid, (x) => x.session.status === "completed");
      expect(d.session).toMatchObject({ status: "completed", attempt_count: 1 });
      const log = await readEvents(await b.call(`/sessions/${sid}/events/stream?follow=false`));
      expect(log.filter((e) => e.event === "session_state").map((e) => (e.data as { status: string }).status)).toEqual([
        "queued",
        "running",
        "completed",
      ]);
    }
  });

  it("leaves a live replica's run alone; after kill -9 of the lease holder exactly one of the two others recovers it", async () => {
    const sid = await start(a, "sleep 30");
    let d = await until(b, sid, (x) => x.session.status === "running");
    const first = d.session.process_id;
    const runner = (r: Replica) => `:${r.child.pid}:`;
    expect(first).toContain(runner(a));
    await new Promise((r) => setTimeout(r, 2_000)); // two heartbeats: the other replicas must not take a live run
    expect((await detail(b, sid)).session).toMatchObject({ status: "running", process_id: first, attempt_count: 1 });
    await a.kill();
    d = await until(b, sid, (x) => x.session.process_id !== first && x.session.status === "running");
    expect(d.session).toMatchObject({ status: "running", attempt_count: 2 });
    expect([runner(b), runner(c)].some((p) => d.session.process_id.includes(p))).toBe(true);
    await new Promise((r) => setTimeout(r, 1_000)); // the replica that lost the claim must not run it as well
    const log = await readEvents(await b.call(`/sessions/${sid}/events/stream?follow=false`));
    expect(log.filter((e) => e.event === "session_state").map((e) => (e.data as { status: string }).status)).toEqual([
      "queued",
      "running",
      "recovering",
      "running",
    ]);
    expect(new Set(log.map((e) => e.id)).size).toBe(log.length);
    expect((await b.call(`/sessions/${sid}/cancel`, {})).status).toBe(200);
  });
});

describe("a replica whose database goes away", { timeout: 120_000 }, () => {
  let cluster: TestCluster;
  let r: Replica;
  beforeAll(async () => {
    cluster = await startTestCluster(postgresBinDir()!);
    [r] = (await startReplicas(cluster.url, 1, "outage")).replicas as [Replica];
  });
  afterAll(async () => {
    await r?.stop();
    cluster?.stop();
  });

  it("answers 503 store_unavailable with Retry-After, stays up, and serves again once the database is back", async () => {
    await json(
      r.call("/v1/memory/ingest", { source_path: "notes/up.md", content: "# Up\n\nThe obsidianite bell rings.\n" }),
    );
    cluster.pause();
    for (const res of [
      await r.call("/v1/memory/ingest", { source_path: "notes/down.md", content: "# Down\n\nNever stored.\n" }),
      await r.call("/v1/memory/recall", { query: "obsidianite" }),
    ]) {
      const body = await json<{ error: { code: string; details: { retry_after_seconds: number } } }>(res, 503);
      expect(body.error.code).toBe("store_unavailable");
      expect(res.headers.get("retry-after")).toBe(String(body.error.details.retry_after_seconds));
    }
    expect(r.child.exitCode).toBeNull();
    cluster.resume();
    expect((await hitsOf(r, "obsidianite")).map((h) => h.source_path)).toEqual(["notes/up.md"]);
    expect(await hitsOf(r, "never stored")).toEqual([]);
  });
});
