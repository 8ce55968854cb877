// The LISTEN connection a replica's stream followers are woken through comes back by itself after PostgreSQL restarts
// (no new follower needed), and then wakes every follower to read what it could not hear (issue 39, item 6).
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StreamFollowers } from "../../src/store/stream-followers.ts";
import { STREAM_CHANNEL, StreamListener } from "../../src/store/postgres/stream-listener.ts";
import { postgresBinDir, startTestCluster, type TestCluster } from "../helpers/postgres-cluster.ts";

/** Connections of the server whose last statement is our LISTEN (0 while it is down). */
async function listening(url: string): Promise<number> {
  const c = new pg.Client(url);
  c.on("error", () => {});
  try {
    await c.connect();
    const { rows } = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = $1", [
      `LISTEN ${STREAM_CHANNEL}`,
    ]);
    return rows[0]!.n;
  } catch {
    return 0;
  } finally {
    await c.end().catch(() => {});
  }
}

async function until(what: string, ok: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
  for (const end = Date.now() + ms; !(await ok()); await sleep(50))
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
}

describe("the LISTEN connection across PostgreSQL restarts", { timeout: 120_000 }, () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster(postgresBinDir()!);
  });
  afterAll(() => cluster?.stop());

  it("listens again by itself after each restart, wakes every follower then, and hears other processes again", async () => {
    const followers = new StreamFollowers();
    const listener = new StreamListener(cluster.url, followers);
    const wakes: (readonly unknown[] | null)[] = [];
    const unsubscribe = followers.subscribe("ws", "s1", (appended) => wakes.push(appended));
    listener.ensure();
    try {
      await until("it listens", async () => (await listening(cluster.url)) === 1);
      for (let i = 0; i < 3; i++) {
        cluster.crash();
        cluster.resume();
        const before = wakes.length;
        await until(`it listens again after restart ${i + 1}`, async () => (await listening(cluster.url)) === 1);
        await until("the follower is woken to read what it missed", () => wakes.length > before);
      }
      const notifier = new pg.Client(cluster.url);
      await notifier.connect();
      const heard = wakes.length;
      await notifier.query(`SELECT pg_notify($1, $2)`, [
        STREAM_CHANNEL,
        JSON.stringify(["ws", "s1", "another-replica"]),
      ]);
      await notifier.end();
      await until("another process's append is heard", () => wakes.length > heard);
      expect(wakes.at(-1)).toBeNull();
    } finally {
      unsubscribe();
      await listener.close();
    }
  });
});
