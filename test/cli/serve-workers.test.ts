// `smriti serve --workers 2`: two processes on one port and one data directory. A write through one connection is
// recalled through every other, a session's live stream wakes at once whichever worker appends, a killed worker is
// replaced while the other answers, and SIGTERM stops them all.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSse } from "../../src/client/sse.ts";
import { cliEnv, runCli, runJsonHere, startServe, type RunningServe } from "./cli-helpers.ts";

const root = mkdtempSync(join(tmpdir(), "smriti-workers-"));
const servers: RunningServe[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(root, { recursive: true, force: true });
});

/** A POST on a connection of its own (the primary hands each new connection to the next worker). */
function postFresh(
  url: string,
  path: string,
  token: string,
  body: object,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      {
        method: "POST",
        agent: false,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      },
      (res) => {
        let raw = "";
        res.on("data", (d: Buffer) => (raw += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(raw) as Record<string, unknown> }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const workerPids = (primary: number) => {
  try {
    return execFileSync("pgrep", ["-P", String(primary)])
      .toString()
      .trim()
      .split("\n")
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when it finds none
  }
};

describe("smriti serve --workers 2", { timeout: 90_000 }, () => {
  it("answers on one port from both processes, as one store, and wakes every live stream at once", async () => {
    const data = join(root, "data");
    const env = cliEnv({ SMRITI_RATE_LIMIT: "0" });
    const { token } = await runJsonHere<{ token: string }>(["token", "create", "--json", "--data", data], { env });
    const srv = await startServe(data, env, ["--workers", "2"]);
    servers.push(srv);
    expect(srv.log()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(2 workers\)/);
    // Each worker says so itself, at about the time the primary announces the port.
    for (
      const until = Date.now() + 5_000;
      !(/w1\] answering/.test(srv.log()) && /w2\] answering/.test(srv.log())) && Date.now() < until;
    )
      await new Promise((r) => setTimeout(r, 20));
    expect(srv.log()).toContain("[smriti w1] answering");
    expect(srv.log()).toContain("[smriti w2] answering");
    expect(workerPids(srv.child.pid!)).toHaveLength(2);

    // Written through one connection, recalled through ten others (both workers among them).
    const ingested = await postFresh(srv.url, "/v1/memory/ingest", token, {
      source_path: "notes/db.md",
      content: "We chose PostgreSQL for the ledger service.",
    });
    expect(ingested.status).toBe(200);
    for (let i = 0; i < 10; i++) {
      const recalled = await postFresh(srv.url, "/v1/memory/recall", token, {
        query: "which database for the ledger",
        k: 3,
      });
      expect((recalled.json.hits as { source_path: string }[])[0]?.source_path).toBe("notes/db.md");
    }

    // Four live streams of one session (on both workers); each turn's end reaches all of them well inside the 1 s poll.
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const sid = (
      (await (await fetch(`${srv.url}/chat/sessions`, { method: "POST", headers: auth, body: "{}" })).json()) as {
        session_id: string;
      }
    ).session_id;
    const abort = new AbortController();
    const ends: number[][] = [[], [], [], []];
    const followers = ends.map(async (seen) => {
      const res = await fetch(`${srv.url}/sessions/${sid}/events/stream`, { headers: auth, signal: abort.signal });
      for await (const e of parseSse(res.body!)) if (e.event === "completed") seen.push(performance.now());
    });
    await new Promise((r) => setTimeout(r, 300));
    const lags: number[] = [];
    for (let turn = 0; turn < 4; turn++) {
      const res = await fetch(`${srv.url}/chat/sessions/${sid}/messages`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ message: "Which database did we choose?" }),
      });
      for await (const e of parseSse(res.body!)) if (e.event === "completed") break;
      const done = performance.now();
      for (const until = done + 2_000; ends.some((s) => s.length <= turn) && performance.now() < until;)
        await new Promise((r) => setTimeout(r, 5));
      lags.push(...ends.map((s) => (s[turn] ?? Infinity) - done));
    }
    abort.abort();
    await Promise.allSettled(followers);
    expect(Math.max(...lags)).toBeLessThan(400); // a poll would leave the other worker's followers 0-1,000 ms behind

    // A worker killed: the other answers meanwhile, and the primary starts another in its place.
    const [victim] = workerPids(srv.child.pid!);
    process.kill(victim!, "SIGKILL");
    // Once the primary knows (a connection handed to the dying worker in that instant would be lost with it).
    for (const until = Date.now() + 10_000; !/exited by SIGKILL/.test(srv.log()) && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 20));
    expect((await postFresh(srv.url, "/v1/memory/recall", token, { query: "ledger", k: 3 })).status).toBe(200);
    for (const until = Date.now() + 30_000; !/starting another[\s\S]*answering/.test(srv.log()) && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 100));
    expect(srv.log()).toMatch(/worker \d exited by SIGKILL; starting another/);
    const after = workerPids(srv.child.pid!);
    expect(after).toHaveLength(2);
    expect(after).not.toContain(victim);

    // SIGTERM to the primary stops every worker, and the primary exits cleanly.
    const exited = new Promise<number | null>((r) => srv.child.once("exit", (code) => r(code)));
    srv.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of after) expect(() => process.kill(pid, 0)).toThrow();
  });

  it("refuses a worker count that is not a whole number from 1 to 64, before starting anything", async () => {
    for (const bad of ["0", "65", "1.5", "two"]) {
      const res = await runCli(["serve", "--port", "0", "--workers", bad, "--data", join(root, "refused")]);
      expect(res.code, bad).not.toBe(0);
      expect(res.stderr).toMatch(/--workers takes a whole number from 1 to 64/);
    }
  });
});
