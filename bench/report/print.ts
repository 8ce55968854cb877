// Prints the results: the target check first, then every measurement per corpus size.
import type { IngestResult } from "../scenarios/ingest.ts";
import type { SmallIngest } from "../scenarios/small-ingest.ts";
import type { LatencySummary } from "../lib/stats.ts";
import { connectionsCell, otherCoresCell, processCoresCell, roundsCell, spreadCell } from "./load-cells.ts";
import { renderTable } from "./table.ts";
import type { BenchResults, SizeResults } from "./types.ts";

export function printResults(r: BenchResults): string {
  const out: string[] = [];
  const m = r.machine;
  out.push(
    `Smriti bench ${r.date} commit ${r.commit.short}${r.commit.dirty ? "+dirty" : ""}${r.options.quick ? "  QUICK" : ""}`,
    `${m.cpus} x ${m.cpuModel}, ${m.totalMemMB} MB, node ${m.node}, sqlite ${m.sqlite ?? "?"}, load avg ${m.loadAvgStart} -> ${m.loadAvgEnd}` +
      (Math.max(m.loadAvgStart, m.loadAvgEnd) > m.cpus ? "  (machine busy: wall times inflated; see cpu ms/op)" : ""),
  );
  out.push(
    "",
    "Targets",
    renderTable(
      ["metric", "target", "measured", "result"],
      r.targets.map((t) => [t.metric, t.target, `${fmt(t.measured)} ${t.unit}`, t.pass ? "PASS" : "MISS"]),
    ),
  );
  for (const t of r.targets) if (t.note) out.push(`  note (${t.metric}): ${t.note}`);
  for (const s of r.sizes) out.push("", ...sizeSection(s));
  if (r.smallIngest) out.push("", ...smallIngestSection(r.smallIngest));
  out.push("", `total bench time ${r.durationSeconds.toFixed(0)} s`);
  return out.join("\n");
}

function sizeSection(s: SizeResults): string[] {
  const out = [
    `== ${s.chunks.toLocaleString("en-US")} chunks in ${s.documents.toLocaleString("en-US")} markdown documents ==`,
  ];
  const ingestRow = (name: string, i: IngestResult) => [
    `${name}${i.completed ? "" : " (time-boxed)"}`,
    i.startChunks,
    i.chunks,
    i.chunksPerSec,
    i.cpuChunksPerSec,
    i.firstTenthChunksPerSec,
    i.lastTenthChunksPerSec,
    i.seconds,
    i.embedSeconds,
  ];
  const ingestRows = (["none", "glove"] as const).flatMap((k) => {
    const g = s.ingest[k];
    const name = `embedder ${g.fromEmpty.embedder}`;
    return [ingestRow(name, g.fromEmpty), ...(g.atSize ? [ingestRow(`${name} at size`, g.atSize)] : [])];
  });
  out.push(
    renderTable(
      ["ingest (in-process)", "from", "chunks", "chunks/s", "per CPU-s", "first 10%", "last 10%", "seconds", "embed s"],
      ingestRows,
    ),
    `DB on disk: ${s.db.none.totalMB} MB without vectors, ${s.db.glove.totalMB} MB with ${s.ingest.glove.fromEmpty.embedder}` +
      (s.ingest.glove.filledDocuments > 0
        ? ` (${s.ingest.glove.filledDocuments} documents filled unmeasured after the time budget)`
        : ""),
    "",
  );
  const row = (name: string, x: LatencySummary, cpu: number | string, extra: string) => [
    name,
    x.n,
    x.p50,
    x.p90,
    x.p99,
    x.mean,
    x.max,
    cpu,
    extra,
  ];
  const c = s.contention;
  out.push(
    renderTable(
      ["latency (ms)", "n", "p50", "p90", "p99", "mean", "max", "cpu ms/op", "extra"],
      [
        ...s.recall.map((x) => row(`recall ${x.mode} in-process`, x, x.cpuMsPerOp, `${x.avgHits} hits`)),
        row("pack in-process", s.pack, s.pack.cpuMsPerOp, `${s.pack.avgItems} items`),
        row("recall hybrid, all layers on", s.layers.allOn, s.layers.allOn.cpuMsPerOp, "-"),
        row("recall hybrid, all layers off", s.layers.allOff, s.layers.allOff.cpuMsPerOp, "BM25 only (no sabha)"),
        row("recall hybrid HTTP sequential", s.http.sequential, s.http.sequential.cpuMsPerOp, "-"),
        row(
          `recall hybrid HTTP c=${s.http.concurrent.concurrency}`,
          s.http.concurrent,
          "-",
          `${s.http.concurrent.requestsPerSec} req/s`,
        ),
        ...(c
          ? [
              row("recall HTTP idle (client proc)", c.idle, "-", "-"),
              row("recall HTTP during ingest", c.duringIngest, "-", c.queriesRepeated ? "queries repeated" : "-"),
              row(
                "ingest HTTP request (50 chunks)",
                c.ingest.request,
                "-",
                `${c.ingest.chunksPerSec} chunks/s, ${c.ingest.documents}/${c.ingest.plannedDocuments} docs`,
              ),
            ]
          : []),
        ...(s.httpIngest
          ? [
              row(
                `bulk ingest HTTP (${s.httpIngest.inFlight} in flight)`,
                s.httpIngest.request,
                "-",
                `${s.httpIngest.chunksPerSec} chunks/s, ${s.httpIngest.documents}/${s.httpIngest.plannedDocuments} docs`,
              ),
            ]
          : []),
        row(
          "chat turn: first token (extractive)",
          s.sessions.firstToken,
          "-",
          `POST to first token event${s.sessions.sessionProcessReadyMs === null ? "" : `; session process ready ${s.sessions.sessionProcessReadyMs} ms after the first turn woke it`}`,
        ),
        row("chat turn: whole turn (extractive)", s.sessions.turn, "-", `${s.sessions.eventsPerTurn} events/turn`),
        row("recall HTTP idle (client proc)", s.sessions.recallCost.idle, "-", "-"),
        row(
          "recall HTTP during chat turns",
          s.sessions.recallCost.duringTurns,
          "-",
          `p50 x${s.sessions.recallCost.p50Ratio} against each phase's idle neighbours (phases ${s.sessions.recallCost.phaseRatios.join(", ")}; pooled x${s.sessions.recallCost.pooledP50Ratio}), ${s.sessions.recallCost.turns} turns`,
        ),
        row(
          `recall HTTP beside ${s.sessions.recallCost.spinCores} cores spinning`,
          s.sessions.recallCost.duringSpin,
          "-",
          `p50 x${s.sessions.recallCost.spinP50Ratio} (control: the turns' ${s.sessions.recallCost.turnCores} cores)`,
        ),
        ...(s.sessions.recallCost.inServingProcess
          ? [
              row(
                "recall HTTP, turns in the serving process",
                s.sessions.recallCost.inServingProcess.duringTurns,
                "-",
                `p50 x${s.sessions.recallCost.inServingProcess.p50Ratio} (SMRITI_SESSION_PROCESS=0)`,
              ),
            ]
          : []),
        row(
          `recall HTTP during chat turns, turn client at nice ${s.sessions.recallCost.clientAside.nice}`,
          s.sessions.recallCost.clientAside.duringTurns,
          "-",
          `p50 x${s.sessions.recallCost.clientAside.p50Ratio}`,
        ),
        ...(s.sessions.recallCost.clientAside.inServingProcess
          ? [
              row(
                `recall HTTP, turns in the serving process, client at nice ${s.sessions.recallCost.clientAside.nice}`,
                s.sessions.recallCost.clientAside.inServingProcess.duringTurns,
                "-",
                `p50 x${s.sessions.recallCost.clientAside.inServingProcess.p50Ratio}`,
              ),
            ]
          : []),
      ],
    ),
    ...(s.httpLoad
      ? [
          renderTable(
            [
              "recall hybrid over HTTP, autocannon (other process)",
              "req/s",
              "rounds req/s",
              "spread",
              "other processes' cores",
              "mean ms",
              "p50 ms",
              "p99 ms",
              "errors",
              "non-2xx",
              "queries repeated",
              "server cores",
              "autocannon cores",
              "server CPU ms/req",
            ],
            s.httpLoad.steps.map((x) => [
              `${x.connections} connection(s), ${x.rounds.length} x ${x.seconds} s`,
              x.requestsPerSec,
              roundsCell(x),
              spreadCell(x),
              otherCoresCell(x),
              x.mean,
              x.p50,
              x.p99,
              x.errors,
              x.non2xx,
              x.queriesRepeated ? "yes" : "no",
              x.serverCores ?? "-",
              x.clientCores ?? "-",
              x.serverCpuMsPerRequest ?? "-",
            ]),
          ),
          `HTTP overhead: mean latency at 1 connection / in-process hybrid mean = x${s.httpLoad.overheadRatio ?? "?"}`,
        ]
      : []),
    ...(s.workersLoad
      ? [
          renderTable(
            [
              "recall hybrid over HTTP, smriti serve --workers (compiled)",
              "req/s",
              "rounds req/s",
              "spread",
              "worker cores per round",
              "connections per worker",
              "other processes' cores",
              "p50 ms",
              "p99 ms",
              "errors",
              "non-2xx",
              "group cores",
              "server CPU ms/req",
              "group RSS MB",
            ],
            s.workersLoad.flatMap((g) =>
              g.steps.map((x) => [
                `${g.workers} worker(s), ${x.connections} connections`,
                x.requestsPerSec,
                roundsCell(x),
                spreadCell(x),
                processCoresCell(x, g.workers > 1 ? 1 : 0),
                connectionsCell(x, g.workers > 1 ? 1 : 0),
                otherCoresCell(x),
                x.p50,
                x.p99,
                x.errors,
                x.non2xx,
                x.serverCores ?? "-",
                x.serverCpuMsPerRequest ?? "-",
                g.rssMB,
              ]),
            ),
          ),
        ]
      : []),
    ...(s.postgres ? postgresSection(s) : []),
    `one SSE stream: ${s.sessions.sse.events} logged events in ${s.sessions.sse.seconds} s = ${s.sessions.sse.eventsPerSec} events/s`,
    ...[s.background.extractive, s.background.paced].map(
      (b) =>
        `background sessions (${b.provider}): ${b.sessions} started at once, ${b.peakRunning} running at the peak, done in ${b.seconds} s ` +
        `(${b.completedPerMinute} completed/min, ${b.failed} not completed, ${b.eventsPerSession} events each); ` +
        `event delivery to ${b.followed} SSE followers (another process) p50 ${b.eventLatency.p50} / p99 ${b.eventLatency.p99} ms`,
    ),
    "",
    renderTable(
      ["cognitive layer", "us per hybrid recall (all on)", "failures"],
      s.layers.perLayer.map((l) => [l.layer, l.usPerRecall, l.failures]),
    ),
    "",
    renderTable(
      [
        "cold start (fresh process)",
        "embedder ms",
        "open ms",
        "1st lexical ms",
        "1st hybrid ms",
        "to 1st recall ms",
        "RSS MB",
        "heap MB",
        "external MB",
        "baseline RSS",
      ],
      [s.coldStart.glove, s.coldStart.none, ...(s.coldStart.restart ? [s.coldStart.restart] : [])].map((x) => [
        `embedder ${x.embedder}${x.restored ? ", from the saved indexes" : ""}`,
        x.embedderLoadMs,
        x.openMs,
        x.firstLexicalRecallMs,
        x.firstHybridRecallMs,
        x.toFirstRecallMs,
        x.memoryLoaded.rssMB,
        x.memoryLoaded.heapUsedMB,
        x.memoryLoaded.externalMB,
        x.memoryBaseline.rssMB,
      ]),
    ),
    `bench process after recall runs: RSS ${s.benchProcessMemory.rssMB} MB, heap used ${s.benchProcessMemory.heapUsedMB} MB`,
    ...(s.served
      ? [
          renderTable(
            [
              "smriti serve (compiled, fresh process)",
              "to 1st recall ms",
              "RSS MB after 50 recalls",
              "peak RSS MB",
              "RSS MB after idling",
            ],
            [s.served.snapshot, s.served.rows].map((x) => [
              x.snapshots ? "indexes from the saved snapshot" : "indexes from every row",
              x.toFirstRecallMs,
              x.rssMB,
              x.peakRssMB,
              x.settledRssMB,
            ]),
          ),
        ]
      : []),
    ...(s.cli
      ? [
          `compiled CLI, wall ms (p50 / max of ${s.cli.help.n}): smriti --help ${s.cli.help.p50} / ${s.cli.help.max}, smriti recall ${s.cli.recall.p50} / ${s.cli.recall.max}`,
        ]
      : []),
  );
  return out;
}

const fmt = (x: number) => (Number.isInteger(x) ? x.toLocaleString("en-US") : x.toFixed(2));

/** SQLite and PostgreSQL side by side on the same corpus and queries. */
function postgresSection(s: SizeResults): string[] {
  const p = s.postgres!;
  const sqlite = (mode: string) => s.recall.find((r) => r.mode === mode);
  const sqliteLoad = s.httpLoad?.steps.find((x) => x.connections === 16);
  return [
    renderTable(
      [`SQLite vs ${p.server}`, "SQLite", "PostgreSQL", "ratio"],
      [
        ...p.recall.flatMap((r) => {
          const base = sqlite(r.mode);
          return [
            [`recall ${r.mode} in-process p50 ms`, base?.p50 ?? "-", r.p50, base ? round2(r.p50 / base.p50) : "-"],
            [`recall ${r.mode} in-process p99 ms`, base?.p99 ?? "-", r.p99, base ? round2(r.p99 / base.p99) : "-"],
          ];
        }),
        [
          "ingest chunks/s (GloVe, in-process)",
          s.ingest.glove.fromEmpty.chunksPerSec,
          p.ingest.chunksPerSec,
          round2(p.ingest.chunksPerSec / s.ingest.glove.fromEmpty.chunksPerSec),
        ],
        [
          "HTTP recall req/s, 16 connections, one process",
          sqliteLoad?.requestsPerSec ?? "-",
          p.replicas[0]!.requestsPerSec,
          sqliteLoad ? round2(p.replicas[0]!.requestsPerSec / sqliteLoad.requestsPerSec) : "-",
        ],
        ...(p.chat && s.sessions
          ? [
              [
                "chat turn first token p50 ms (extractive, HTTP)",
                s.sessions.firstToken.p50,
                p.chat.firstToken.p50,
                round2(p.chat.firstToken.p50 / s.sessions.firstToken.p50),
              ],
              [
                "chat turn p50 ms (extractive, HTTP)",
                s.sessions.turn.p50,
                p.chat.turn.p50,
                round2(p.chat.turn.p50 / s.sessions.turn.p50),
              ],
            ]
          : []),
      ],
    ),
    renderTable(
      ["PostgreSQL replicas (smriti serve processes)", "req/s", "p50 ms", "p99 ms", "errors"],
      p.replicas.map((r) => [
        `${r.replicas} replica(s), 16 connections in all`,
        r.requestsPerSec,
        r.p50,
        r.p99,
        r.errors,
      ]),
    ),
    `two replicas / one: x${p.scaling} (2 cores shared by the replicas, the load generators and PostgreSQL)`,
    `loading one workspace's indexes (BM25 + vectors) from PostgreSQL: ${p.indexLoadSeconds ?? "?"} s (what a search pays after SMRITI_INDEX_MEMORY_MB dropped them)`,
    ...(p.smallIngest ? ["", ...smallIngestSection(p.smallIngest, "on PostgreSQL")] : []),
  ];
}

const round2 = (x: number) => Math.round(x * 100) / 100;

function smallIngestSection(small: NonNullable<BenchResults["smallIngest"]>, store = "on SQLite"): string[] {
  const row = (name: string, s: SmallIngest) => [
    `${name}, ${s.writers} writers`,
    s.rounds.map((r) => r.docsPerSec).join(" / "),
    s.docsPerSec.median,
    s.cpuDocsPerSec,
    s.latency.p50,
    s.latency.p99,
  ];
  return [
    `== one-chunk documents (a message, a fact) ${store}, each acknowledged once committed with its vector and audit event ==`,
    renderTable(
      ["ingest", "docs/s per round", "median", "per server CPU-s", "p50 ms", "p99 ms"],
      [row("in-process", small.inProcess), row("HTTP (client process)", small.http)],
    ),
  ];
}
