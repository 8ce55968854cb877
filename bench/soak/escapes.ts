// The soak's trust-boundary phase (issue 39): a `smriti serve` with an operator's catalog, and the ways a token might
// make it run, fetch or read what the operator did not allow. Each attempt is counted refused (a 4xx at start, or a
// run that fails closed) or escaped (it got through); a probe run under bubblewrap reports what it could reach.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ESCAPE_PROBE, probeReport, probeTask } from "../../test/helpers/escape-probe.ts";
import { cli, serveEnv, startServe } from "./serve.ts";

export interface Escapes {
  attempts: number;
  refused: number;
  escaped: number;
  /** What the bubblewrap probe reached, by name: yes means an escape. */
  probe: Record<string, string>;
  examples: string[];
}

export async function escapes(scratch: string): Promise<Escapes> {
  const catalog = {
    command_agents: {
      probe: { argv: ["/bin/sh", "-c", ESCAPE_PROBE], approval_floor: "never" },
      guarded: { argv: ["/bin/true"] },
    },
  };
  const catalogFile = join(scratch, "catalog.json");
  writeFileSync(catalogFile, JSON.stringify(catalog));
  // A data directory as the service makes one (searchable by others): bubblewrap, run as nobody, walks to its task workspaces.
  const dir = join(mkdtempSync(join(tmpdir(), "smriti-soak-escapes-")), "data");
  mkdirSync(dir);
  chmodSync(dirname(dir), 0o755);
  const env = serveEnv({ SMRITI_AGENT_CATALOG: catalogFile, SMRITI_RATE_LIMIT: "0" });
  const srv = await startServe(dir, env);
  const token = (scopes: string) =>
    (JSON.parse(cli(dir, ["token", "create", "--scope", scopes, "--json"], env)) as { token: string }).token;
  const executor = token("read,write,execute");
  const writer = token("read,write");
  const out: Escapes = { attempts: 0, refused: 0, escaped: 0, probe: {}, examples: [] };
  const start = async (who: string, body: Record<string, unknown>) => {
    const res = await fetch(`${srv.url}/sessions`, {
      method: "POST",
      headers: { authorization: `Bearer ${who}`, "content-type": "application/json" },
      body: JSON.stringify({ task: "t", ...body }),
    });
    return {
      status: res.status,
      body: (await res.json()) as { session?: { session_id: string; approval_mode: string }; error?: { code: string } },
    };
  };
  const attempt = async (
    what: string,
    who: string,
    body: Record<string, unknown>,
    refusedIf: (r: Awaited<ReturnType<typeof start>>) => boolean,
  ) => {
    out.attempts++;
    const r = await start(who, body);
    if (refusedIf(r)) out.refused++;
    else {
      out.escaped++;
      out.examples.push(`escape: ${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    }
  };
  const refused4xx = (r: { status: number }) => r.status >= 400 && r.status < 500;
  try {
    for (const argv of [["cat", "/etc/passwd"], ["sh", "-c", "id"], ["node", "-e", "1"], ["/bin/true"]])
      await attempt(
        `raw argv ${argv.join(" ")}`,
        executor,
        { engine: "command", command: argv, approval_mode: "never" },
        refused4xx,
      );
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      `${srv.url}/`,
      "http://127.0.0.1:5432/",
      "http://localhost:6379/",
    ])
      await attempt(
        `agent_url ${url}`,
        executor,
        { engine: "a2a", agent_url: url, approval_mode: "never" },
        refused4xx,
      );
    await attempt(
      "a catalog agent without the execute scope",
      writer,
      { engine: "command", agent: "probe", approval_mode: "never" },
      (r) => r.status === 403,
    );
    await attempt(
      "the process sandbox the operator did not turn on",
      executor,
      { engine: "command", agent: "probe", sandbox_mode: "process" },
      (r) => r.status === 200 || refused4xx(r),
    );
    await attempt(
      "approval_mode never below the agent's floor",
      executor,
      { engine: "command", agent: "guarded", approval_mode: "never" },
      (r) => r.body.session?.approval_mode === "on-write" || refused4xx(r),
    );
    await attempt(
      "an agent param the entry does not take",
      executor,
      { engine: "command", agent: "probe", agent_params: { x: "$(id)" } },
      refused4xx,
    );
    // The probe itself: each thing it reaches is an escape.
    const open = mkdtempSync(join(tmpdir(), "smriti-soak-open-"));
    chmodSync(open, 0o777);
    const run = await start(executor, {
      engine: "command",
      agent: "probe",
      approval_mode: "never",
      task: probeTask({ data: dir, open, port: srv.port }),
    });
    if (run.status !== 200) out.examples.push(`probe did not start: ${run.status} ${JSON.stringify(run.body)}`);
    else out.probe = await probeOutput(srv.url, executor, run.body.session!.session_id);
    for (const [name, value] of Object.entries(out.probe)) {
      if (name === "uid" || name === "inside") continue;
      out.attempts++;
      if (value === "no") out.refused++;
      else {
        out.escaped++;
        out.examples.push(`escape: the probe reached ${name}`);
      }
    }
  } finally {
    await srv.stop();
    rmSync(dirname(dir), { recursive: true, force: true });
  }
  return out;
}

/** The probe's report, once its run ends (a run that cannot be isolated fails closed and reports nothing). */
async function probeOutput(base: string, token: string, sessionId: string): Promise<Record<string, string>> {
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const d = (await (
      await fetch(`${base}/sessions/${sessionId}`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { session: { status: string }; artifacts: { type: string; text?: string }[] };
    if (d.session.status === "failed") return {};
    const output = d.artifacts.find((a) => a.type === "final_output")?.text;
    if (output !== undefined) return probeReport(output);
  }
  return {};
}
