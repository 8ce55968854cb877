// Isolation fails closed (issue 39): a catalog command under bubblewrap cannot read the host's secrets, the data
// directory or another workspace's task workspace, cannot write outside its own, cannot reach the network or the
// service; pause, cancel and the time limit leave no process behind; where bubblewrap cannot run, what needs it is refused.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Isolation } from "../../src/sessions/policy/sandbox.ts";
import { createHttpApp } from "../../src/transports/http/app.ts";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import { ESCAPE_PROBE, probeReport, probeTask } from "../helpers/escape-probe.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { act, startBackground, waitFor } from "./background-support.ts";

// The sqlite and postgres projects run this file at once: each run's sleeps carry their own numbers.
const base = 10_000 + 10 * Math.floor(Math.random() * 80_000);
const sleep = (n: number) => `sleep ${base + n}`;
const entry = (argv: string[], extra: Record<string, unknown> = {}) => ({ argv, approval_floor: "never", ...extra });
const catalog = {
  command_agents: {
    probe: entry(["/bin/sh", "-c", ESCAPE_PROBE]),
    probe_net: entry(["/bin/sh", "-c", ESCAPE_PROBE], { network: true }),
    sleeper: entry(["/bin/sh", "-c", `${sleep(1)} & ${sleep(2)} & wait`]),
    sleeper_process: entry(["/bin/sh", "-c", `${sleep(3)} & ${sleep(4)} & wait`], { sandbox: "process" }),
    slow: entry(["/bin/sh", "-c", `${sleep(5)} & wait`], { timeout_seconds: 1 }),
  },
};

/** Processes whose command line holds `marker` (the process table, as ps reads it). */
function processesWith(marker: string): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until(ok: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !ok(); await new Promise((r) => setTimeout(r, 25)))
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
}

const probeRoot = mkdtempSync(join(tmpdir(), "smriti-probe-"));
chmodSync(probeRoot, 0o755);
const usable = new Isolation([], ["/usr/bin/bwrap", "/bin/bwrap"], probeRoot).bubblewrap();
if (!usable.path)
  process.stderr.write(
    `\n[test] bubblewrap cannot run here (${usable.why}): the escape tests check that what needs it is refused\n\n`,
  );

describe.runIf(usable.path)("a catalog command under bubblewrap", () => {
  let svc: TestService;
  let server: RunningServer;
  let open: string;
  let other: string;
  beforeAll(async () => {
    svc = await startTestService({
      multiTenant: true,
      agentCatalog: catalog,
      env: { SMRITI_SESSION_HEARTBEAT_MS: "100" },
    });
    server = await listen(createHttpApp(svc.runtime), "127.0.0.1", 0);
    open = mkdtempSync(join(tmpdir(), "smriti-open-"));
    chmodSync(open, 0o777); // anyone may write here: only isolation keeps the command out
    // Another workspace's session with a file in its task workspace.
    const tenant = await svc.issueToken("other");
    const res = await svc.post(
      "/sessions",
      { task: "t", engine: "command", agent: "probe", approval_mode: "never" },
      { authorization: `Bearer ${tenant.token}` },
    );
    const started = (await res.json()) as { session: { session_id: string } };
    other = join(svc.config.sessionsDir, tenant.workspaceId, started.session.session_id);
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, "secret.txt"), "the other workspace's secret");
  });
  afterAll(async () => {
    await server.close();
    await svc.cleanup();
  });

  const probe = async (agent: string) => {
    const task = probeTask({ data: svc.dataDir, other, open, port: server.port });
    const s = await startBackground(svc, { task, engine: "command", agent, approval_mode: "never" });
    const done = await waitFor(svc, s.session.session_id, ["completed", "failed"], 20_000);
    expect(done.session.status, done.session.last_error ?? "").toBe("completed");
    const dir = join(svc.config.sessionsDir, svc.workspaceId, s.session.session_id);
    return { seen: probeReport(String(done.artifacts[0]!.text)), dir };
  };

  it("reads no host secret, data directory or other workspace, writes only its workspace, reaches neither network nor service", async () => {
    const { seen, dir } = await probe("probe");
    expect(seen).toMatchObject({
      shadow: "no",
      data: "no",
      db: "no",
      other: "no",
      outside: "no",
      inside: "yes",
      service: "no",
    });
    expect(seen["uid"]).not.toBe("0");
    expect(existsSync(join(open, "escaped"))).toBe(false);
    expect(readFileSync(join(dir, "inside.txt"), "utf8")).toBe("x\n");
  });

  it("reaches the service only where its entry allows the network (the probe can tell)", async () => {
    const { seen } = await probe("probe_net");
    expect(seen).toMatchObject({ service: "yes", data: "no", outside: "no" });
  });

  for (const [agent, marker, action] of [
    ["sleeper", sleep(1), "pause"],
    ["sleeper", sleep(2), "cancel"],
    ["sleeper_process", sleep(3), "pause"],
    ["sleeper_process", sleep(4), "cancel"],
  ] as const) {
    it(`leaves no process of a ${agent === "sleeper" ? "bubblewrap" : "process-sandbox"} command after ${action}`, async () => {
      const s = await startBackground(svc, { task: "t", engine: "command", agent, approval_mode: "never" });
      await until(() => processesWith(marker).length > 0, `${marker} running`);
      expect((await act(svc, s.session.session_id, action)).status).toBe(200);
      await until(() => processesWith(marker).length === 0, `no ${marker} left`);
    });
  }

  it("kills the whole tree at the entry's time limit and fails the run with command_timeout", async () => {
    const s = await startBackground(svc, { task: "t", engine: "command", agent: "slow", approval_mode: "never" });
    await until(() => processesWith(sleep(5)).length > 0, `${sleep(5)} running`);
    const done = await waitFor(svc, s.session.session_id, ["completed", "failed"], 10_000);
    expect(done.session).toMatchObject({ status: "failed", last_error: expect.stringMatching(/past its 1 s limit/) });
    // SIGKILL lands a moment after the run is failed: the tree must be gone soon, not at once.
    await until(() => processesWith(sleep(5)).length === 0, `no ${sleep(5)} left`);
  });
});

describe("where isolation cannot be given", () => {
  let svc: TestService;
  beforeAll(async () => {
    // SMRITI_BWRAP names a bubblewrap that is not there: the host cannot isolate, and says so.
    svc = await startTestService({
      agentCatalog: { command_agents: { probe: entry(["/bin/true"]) } },
      env: { SMRITI_BWRAP: "/nonexistent/bwrap" },
    });
  });
  afterAll(() => svc.cleanup());

  const refused = async (path: string, body: Record<string, unknown>) => {
    const res = await svc.post(path, body);
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "sandbox_unavailable",
      message: expect.stringMatching(/bubblewrap|process sandbox/),
    });
  };

  it("refuses a catalog command that requires bubblewrap, at start, instead of running it weaker", async () => {
    await refused("/sessions", { task: "t", engine: "command", agent: "probe" });
    const list = (await (await svc.get("/sessions")).json()) as { sessions: unknown[] };
    expect(list.sessions).toEqual([]);
  });

  it("refuses sessions that ask for bubblewrap, or for the process sandbox the operator did not turn on", async () => {
    await refused("/chat/sessions", { sandbox_mode: "bubblewrap" });
    await refused("/chat/sessions", { sandbox_mode: "process" });
    await refused("/sessions", { task: "t", sandbox_mode: "bubblewrap" });
  });

  it("lets a session that executes nothing start, saying nothing may execute in it", async () => {
    const res = await svc.post("/chat/sessions", {});
    expect(res.status).toBe(200);
    expect(((await res.json()) as { sandbox_isolation: string }).sandbox_isolation).toBe("none");
  });
});
