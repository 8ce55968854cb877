// `npm run bench:console [-- --events=5000 --runs=5 --profile --dist=DIR]`: the console's gzipped page weight and the first
// render of a long session in headless Chromium, against the targets; prints a table, writes bench/results/console-*.json.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startConsoleService } from "../test/helpers/console-service.ts";
import { launchChromium } from "../test/helpers/browser.ts";
import { measureBundle, snapshotDist } from "./lib/console-bundle.ts";
import { loadOnce, type RenderRun } from "./lib/console-render.ts";
import { fillSession, ingestNotes, type FilledSession } from "./lib/console-session.ts";
import { progress } from "./lib/log.ts";
import { commitInfo, load1, machineInfo } from "./lib/machine.ts";
import { round, summarize } from "./lib/stats.ts";
import { renderTable } from "./report/table.ts";

const TARGETS = { firstRenderMs: 500, gzipKB: 250 };
const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const root = fileURLToPath(new URL("..", import.meta.url));
// --dist: another build to serve, e.g. `vite build web --outDir /tmp/console --minify false` for readable profile names.
const distArg = process.argv.find((a) => a.startsWith("--dist="))?.slice(7);
const opts = {
  events: arg("events", 5_000),
  runs: arg("runs", 5),
  profile: process.argv.includes("--profile"),
  dist: resolve(distArg ?? `${root}web/dist`),
};

const loadAtStart = load1();
const commit = commitInfo(root);
const dist = snapshotDist(opts.dist);
const bundle = measureBundle(root, dist);
if (bundle.newestSourceAt > bundle.builtAt)
  progress(
    `warning: the console's sources changed after web/dist was built (${bundle.newestSourceAt} > ${bundle.builtAt}); npm run build:console`,
  );
if (bundle.react !== "production")
  progress("warning: web/dist holds React's development build (built with NODE_ENV other than production)");

const service = await startConsoleService({ env: { SMRITI_CONSOLE_DIR: dist.dir } });
const browser = await launchChromium();
let session: FilledSession,
  warmup: RenderRun,
  runs: RenderRun[],
  profiled: RenderRun | null = null;
try {
  await ingestNotes(service.svc.post);
  progress(`filling a chat session to ${opts.events} events`);
  const t0 = performance.now();
  session = await fillSession(service.client, opts.events, (n) => progress(`  ~${n} events`));
  progress(
    `${session.events} events in ${session.turns} turns (${Math.round(performance.now() - t0)} ms); ${session.rows} rows expected`,
  );
  const target = {
    url: `${service.url}/console/#/sessions/chat/${session.sessionId}`,
    token: service.svc.token,
    rows: session.rows,
    lastRowKey: session.lastRowKey,
  };
  warmup = await loadOnce(browser, target);
  runs = [];
  for (let i = 0; i < opts.runs; i++) {
    runs.push(await loadOnce(browser, target));
    progress(`run ${i + 1}: painted at ${Math.round(runs.at(-1)!.painted!)} ms`);
  }
  // A missed target (or --profile): one more load under the CPU profiler, to say where the time goes.
  const median = summarize(runs.map((r) => r.painted!)).p50;
  if (opts.profile || median > TARGETS.firstRenderMs) profiled = await loadOnce(browser, target, { profile: true });
} finally {
  await browser.close();
  await service.close();
  rmSync(dist.dir, { recursive: true, force: true });
}

const stat = (pick: (r: RenderRun) => number | null) => {
  const s = summarize(runs.map((r) => pick(r) ?? NaN));
  return { min: s.min, median: s.p50, max: s.max };
};
const render = {
  painted: stat((r) => r.painted),
  complete: stat((r) => r.complete),
  firstRow: stat((r) => r.firstRow),
  live: stat((r) => r.live),
  domContentLoaded: stat((r) => r.domContentLoaded),
  wallFromGoto: stat((r) => r.wallMs),
  mainThreadTask: stat((r) => r.mainThread.taskMs),
  mainThreadScript: stat((r) => r.mainThread.scriptMs),
  mainThreadStyle: stat((r) => r.mainThread.styleMs),
  mainThreadLayout: stat((r) => r.mainThread.layoutMs),
};
const gzipKB = round(bundle.gzipBytes / 1000, 1);
const targets = [
  {
    measure: `first render, ${session.events} events (median ms)`,
    target: `<= ${TARGETS.firstRenderMs}`,
    measured: render.painted.median,
    met: render.painted.median <= TARGETS.firstRenderMs,
  },
  {
    measure: "web/dist gzipped, level 9 (KB)",
    target: `<= ${TARGETS.gzipKB}`,
    measured: gzipKB,
    met: gzipKB <= TARGETS.gzipKB,
  },
];

const results = {
  date: new Date().toISOString().slice(0, 10),
  commit,
  machine: machineInfo(null, loadAtStart),
  browser: "Debian chromium (headless, playwright-core); a fresh context per load; one unmeasured warm-up load",
  options: opts,
  targets,
  session: { ...session, streamReadMs: round(session.streamReadMs, 1) },
  render: { ...render, runs, warmup, profiled },
  bundle: { ...bundle, gzipKB },
};
const dir = fileURLToPath(new URL("./results/", import.meta.url));
mkdirSync(dir, { recursive: true });
const file = `${dir}console-${results.date}-${commit.short}${distArg ? "-other-dist" : ""}.json`;
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);

const ms = (s: { min: number; median: number; max: number }) => [s.min, s.median, s.max] as const;
process.stdout.write(
  [
    `console bench @ ${commit.short}${commit.dirty ? " (dirty)" : ""}: ${session.events} events, ${session.turns} turns, ${session.rows} rows, ${opts.runs} loads`,
    "",
    renderTable(
      ["measure", "target", "measured", "met?"],
      targets.map((t) => [t.measure, t.target, t.measured, t.met ? "yes" : "NO"]),
    ),
    "",
    renderTable(
      ["ms since navigation start", "min", "median", "max"],
      [
        ["DOMContentLoaded", ...ms(render.domContentLoaded)],
        ["stream live", ...ms(render.live)],
        ["first row", ...ms(render.firstRow)],
        ["all rows in the DOM", ...ms(render.complete)],
        ["painted (first render)", ...ms(render.painted)],
        ["wall, from page.goto", ...ms(render.wallFromGoto)],
      ],
    ),
    "",
    renderTable(
      ["renderer main thread, whole load (ms)", "min", "median", "max"],
      [
        ["tasks", ...ms(render.mainThreadTask)],
        ["script", ...ms(render.mainThreadScript)],
        ["style recalculation", ...ms(render.mainThreadStyle)],
        ["layout", ...ms(render.mainThreadLayout)],
      ],
    ),
    ...(profiled?.hot
      ? [
          "",
          `profiled load (not in the figures above): painted at ${Math.round(profiled.painted!)} ms; most self time:`,
          renderTable(
            ["function", "at", "self ms"],
            profiled.hot.map((f) => [f.name, f.at, f.selfMs]),
          ),
        ]
      : []),
    "",
    renderTable(
      ["file", "bytes", "gzip -9"],
      [...bundle.files.map((f) => [f.path, f.bytes, f.gzipBytes] as const), ["total", bundle.bytes, bundle.gzipBytes]],
    ),
    "",
    `reading the log over HTTP in Node: ${round(session.streamReadMs, 1)} ms; wrote ${file}`,
    "",
  ].join("\n"),
);
