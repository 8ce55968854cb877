// The composition root: picks concrete adapters from configuration and wires the services.
import { availableParallelism } from "node:os";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { VERSION } from "./version.ts";
import { createEmbedderFromEnv } from "./embed/config.ts";
import { GLOVE_EMBEDDER_ID } from "./embed/glove.ts";
import { portableNameReader, readsAsName } from "./nlp/compromise-names.ts";
import { portableTagger, posTags } from "./nlp/wink-tagger.ts";
import { systemClock, type Clock } from "./ports/clock.ts";
import type { Embedder, WordNeighbours, WordSimilarity } from "./ports/embedding.ts";
import type { Store } from "./ports/store.ts";
import type { IndexSnapshots } from "./ports/index-snapshots.ts";
import type { AppendNotices } from "./ports/event-log.ts";
import { writeFileAtomic } from "./embed/atomic-file.ts";
import { buildCognitiveStack, type CognitiveStack } from "./cognitive/stack.ts";
import { runtimeCognitiveConfig } from "./cognitive/runtime-config.ts";
import type { CognitivePipeline } from "./cognitive/pipeline.ts";
import type { CognitiveConfig } from "./cognitive/params.ts";
import type { Runtime } from "./runtime.ts";
import { AuthService, DEFAULT_WORKSPACE } from "./services/auth.ts";
import { buildHandlers, buildStreamHandlers } from "./services/handlers.ts";
import { AnswerStreams } from "./services/answering/answer-stream.ts";
import { createMetrics } from "./observability/metrics.ts";
import { AuditService } from "./services/audit/audit.ts";
import { DecisionService } from "./services/knowledge/decisions.ts";
import { DecisionRecordService } from "./services/knowledge/decision-records.ts";
import { AssimilationService } from "./services/knowledge/assimilation.ts";
import { KnowledgeStatusService } from "./services/knowledge/knowledge-status.ts";
import { ProposalService } from "./services/knowledge/proposals.ts";
import { FeedbackService, replayFeedback } from "./services/cognitive/feedback.ts";
import { TraceLog } from "./services/cognitive/traces.ts";
import { UpliftService } from "./services/cognitive/uplift.ts";
import { MeetingService } from "./services/knowledge/meetings.ts";
import { GroundedService } from "./services/answering/grounded.ts";
import { OpenLoopService } from "./services/knowledge/open-loops.ts";
import { GroundedEvalService } from "./services/answering/grounded-eval.ts";
import { IngestService } from "./services/memory/ingest.ts";
import { MemoryService } from "./services/memory/memory.ts";
import { createAutoTuner, type AutoTuner } from "./services/jobs/auto-tune.ts";
import { IngestPool } from "./services/memory/ingest-pool.ts";
import { ThreadQueryEmbedder } from "./services/memory/query-embedder.ts";
import { PlanPool } from "./services/planning/plan-pool.ts";
import { localPlanner, type Planner } from "./services/planning/planner.ts";
import { startReembedder, type Reembedder } from "./services/jobs/reembed.ts";
import { EmbedderHandover, planHandover } from "./services/jobs/embedder-handover.ts";
import {
  defaultRetrievalConfig,
  softTermsSetting,
  type DenseModel,
  type DenseSource,
  type RetrievalConfig,
} from "./search/retrieval-config.ts";
import { calibrationFile, readCalibration } from "./search/stored-calibration.ts";
import { Retriever } from "./search/retriever.ts";
import { SearchEngine } from "./search/engine.ts";
import { openSqliteStore } from "./store/sqlite/index.ts";
import { createProviderSet } from "./llm/providers.ts";
import { policySource } from "./sessions/policy/policy.ts";
import type { ProviderSet } from "./ports/llm.ts";
import { ChatSessions } from "./sessions/chat-sessions.ts";
import { BackgroundSessions } from "./sessions/background/background-sessions.ts";
import { A2aEngine } from "./sessions/background/a2a-engine.ts";
import { CommandEngine } from "./sessions/background/command-engine.ts";
import { NativeEngine } from "./sessions/background/native-engine.ts";
import { loadCatalog, parseCatalog } from "./sessions/policy/catalog.ts";
import { ExecutionRules, type Execution } from "./sessions/policy/rules.ts";
import { Isolation } from "./sessions/policy/sandbox.ts";
import { Supervisor } from "./sessions/background/supervisor.ts";
import { Harness } from "./sessions/turn/harness.ts";
import { buildSessionHandlers, buildSessionStreamHandlers } from "./sessions/handlers.ts";
import { SessionLog } from "./sessions/log/session-log.ts";
import { TurnLeases } from "./sessions/turn-leases.ts";
import { fileTools } from "./sessions/tools/file-tools.ts";
import { memoryTools } from "./sessions/tools/memory-tools.ts";

export { VERSION };

export interface RuntimeOptions {
  /** Use this embedder instead of the configured one; null = lexical only. */
  embedder?: Embedder | null;
  store?: Store;
  clock?: Clock;
  retrieval?: RetrievalConfig;
  log?: (msg: string) => void;
  /** Waits worth telling a person even when `log` is quiet (the one-time word-vector cache build); defaults to `log`. */
  notice?: (msg: string) => void;
  /** Run the automatic tuner (the one serving process: `smriti serve`); needs the store's own parameters. */
  autoTune?: boolean;
  /** Start the background re-embedding loop and WAL checkpointer (the server does; one-shot CLI commands do not). */
  background?: boolean;
  /** How long the re-embedding job waits after an embedder failure (default 30 s). */
  reembedRetryMs?: number;
  /**
   * The embedder recall keeps using while every chunk is re-embedded for a new one (default: GloVe's, when the
   * configured embedder is not GloVe and none was given); null = none, recall uses the new one's partial vectors.
   */
  previousEmbedder?: Embedder | null;
  /** The cognitive stack's switches and parameters (default: tuned ones from the store, else the defaults, then SMRITI_LAYERS_OFF/ON). */
  cognitive?: CognitiveConfig;
  /**
   * Restore what the layers learned in earlier runs (chitta's impressions, karma's ledger from feedback events); default true.
   * The eval turns it off: runtimes over one shared store must each start from the same state to be compared.
   */
  restoreLearned?: boolean;
  /**
   * The one process of a `smriti serve --workers` group that does what a store needs done once: re-embedding and saving
   * the index snapshots at shutdown (default true; the group's other workers pass false).
   */
  lead?: boolean;
  /**
   * Take up the parameters the lead's tuner records (a group's other workers): read from the store this often (ms), so
   * every worker ranks alike soon after a tuning run.
   */
  followTuningMs?: number | undefined;
  /** How a worker of a group hears of the others' appends to the event log (SQLite; PostgreSQL has NOTIFY). */
  appendNotices?: AppendNotices | undefined;
  /** Run background sessions: recover what a restart cut off and keep heartbeats (the serving process does; one-shot CLI commands queue only). */
  supervise?: boolean;
  /** Told of each background session queued in a runtime that does not `supervise` (a serving process tells its session process). */
  queuedElsewhere?: ((workspaceId: string, sessionId: string) => void) | undefined;
  /** The session providers (default: from SMRITI_LLM_*). */
  providers?: ProviderSet;
  /** Session policies by name, found before the files of SMRITI_POLICY_DIR (a local client's policy catalog). */
  policies?: Readonly<Record<string, unknown>>;
  /** The agent catalog as JSON, instead of the file SMRITI_AGENT_CATALOG names (a local client's or a test's). */
  agentCatalog?: unknown;
}

export interface FullRuntime extends Runtime {
  store: Store;
  memory: MemoryService;
  ingest: IngestService;
  /** The CLI reviews memory proposals directly. */
  proposals: ProposalService;
  grounded: GroundedService;
  /** process() traces, read back by id. */
  traces: TraceLog;
  retriever: Retriever;
  /** The in-memory indexes (the server warms them before it reports ready). */
  search: SearchEngine;
  embedder: Embedder | null;
  /** The embedder recall uses now: the previous one while a switch re-embeds (see EmbedderHandover), then `embedder`. */
  dense: DenseSource;
  cognitive: CognitiveStack;
  /** Runs the background sessions (started only in runtimes opened with `supervise`). */
  supervisor: Supervisor;
  /** No chat turn or background run is live here and no background session waits for a process to run it. */
  sessionsAtRest(): Promise<boolean>;
  /**
   * Loads what a first grounded answer would load on its way (the POS tagger on the planner's thread, the word
   * neighbours): about 0.3 s and 40 MB that a process serving only sessions pays before it answers, not in a turn.
   */
  warmAnswers(): Promise<void>;
  /** The automatic tuner (runtimes opened with `autoTune`, as `smriti serve` does, and the store's own parameters); null otherwise. */
  autoTuner: AutoTuner | null;
}

export async function createRuntime(config: Config, opts: RuntimeOptions = {}): Promise<FullRuntime> {
  const log = opts.log ?? ((msg: string) => process.stderr.write(`[smriti] ${msg}\n`));
  const clock = opts.clock ?? systemClock;
  const store = opts.store ?? (await openStore(config, opts.background ?? false, opts.appendNotices));
  await store.workspaces.ensureWorkspace(DEFAULT_WORKSPACE, clock.now().getTime());
  const embedder =
    opts.embedder !== undefined ? opts.embedder : await createEmbedderFromEnv(config.env, { log: opts.notice ?? log });
  const snapshots = config.indexSnapshotDir === null ? undefined : indexSnapshotFiles(config.indexSnapshotDir);
  const search = new SearchEngine(store, { budgetBytes: config.indexMemoryMb * 2 ** 20, snapshots });
  const modelOf = (e: Embedder | null): DenseModel => ({ embedder: e, config: retrievalFor(config, e, opts, log) });
  // A neural model's forward pass blocks the thread it runs on: queries embed on a thread of their own (GloVe's ~30 us stay here).
  const portable = embedder?.id === GLOVE_EMBEDDER_ID ? undefined : embedder?.portable;
  const queries = embedder && portable ? new ThreadQueryEmbedder(embedder, portable) : null;
  const model = modelOf(queries ?? embedder);
  const dense = await planHandover(store.documents, model, () => previousModel(config, embedder, opts, modelOf), log);
  const handover = dense instanceof EmbedderHandover ? dense : null;
  if (handover && !(opts.background && opts.lead !== false)) handover.follow(HANDOVER_CHECK_MS);
  const retriever = new Retriever(search, store.documents, dense, model.config);
  const lexicon = embedder && "neighbours" in embedder ? (embedder as Embedder & WordNeighbours) : null;
  const restore = opts.restoreLearned !== false;
  const cognitive = await buildCognitiveStack({
    store: store.cognitive,
    now: () => clock.now().getTime(),
    lexicon,
    config: opts.cognitive ?? (await runtimeCognitiveConfig(store.cognitive, config.env)),
    log,
    restore,
  });
  if (restore) await replayFeedback(store, cognitive.karma);
  if (opts.background) cognitive.startFlushing();
  const planner = choosePlanner(config, embedder, opts.background ?? false);
  const memory = new MemoryService(store.documents, store.records, retriever, clock, cognitive.pipeline, planner);
  let reembed: Reembedder | null = null;
  const pool = config.ingestWorkers > 0 ? new IngestPool(config.ingestWorkers, embedder?.portable ?? null) : null;
  const ingest = new IngestService(store, embedder, clock, log, () => reembed?.kick(), pool);
  const audit = new AuditService(store.audit, clock);
  const openLoops = new OpenLoopService(store.documents, clock);
  const grounded = new GroundedService(
    retriever,
    audit,
    clock,
    cognitive.pipeline,
    planner,
    async (ws, prefix) => (await openLoops.list(ws, { source_path_prefix: prefix, limit: 100 })).loops,
    store.records,
  );
  const groundedEval = new GroundedEvalService(store.documents);
  const auth = new AuthService(store.workspaces, { multiTenant: config.multiTenant, now: () => clock.now().getTime() });
  const proposals = new ProposalService(store.records, ingest, clock);
  reembed =
    embedder && opts.background && opts.lead !== false
      ? startReembedder(store.documents, embedder, log, opts.reembedRetryMs, {
          onWhole: () => void handover?.check().catch((err: unknown) => log(`embedder handover: ${String(err)}`)),
          // A neural model's forward passes block the thread they run on: the job embeds on the ingest threads.
          ...(pool?.embeds && embedder.id !== GLOVE_EMBEDDER_ID
            ? { embed: (texts: string[]) => pool.embed(texts) }
            : {}),
        })
      : null;
  // The server tunes itself on feedback unless its parameters were given (tests, the eval) or tuned ones are ignored.
  const autoTuner =
    opts.autoTune && opts.cognitive === undefined && config.autoTuneMinutes > 0 && config.env.SMRITI_TUNED !== "0"
      ? await createAutoTuner({ store, retriever, clock, lexicon, live: cognitive.pipeline, env: config.env, log })
      : null;
  autoTuner?.start(config.autoTuneMinutes);
  const follow =
    opts.followTuningMs && opts.cognitive === undefined && config.env.SMRITI_TUNED !== "0"
      ? followTuning(store, cognitive.pipeline, config.env, opts.followTuningMs, log)
      : null;
  const traces = new TraceLog(store.cognitive, () => clock.now().getTime(), log);
  const answerStreams = new AnswerStreams(grounded, store.streams, clock, log);
  const serviceHandlers = buildHandlers({
    memory,
    ingest,
    grounded,
    groundedEval,
    audit,
    decisions: new DecisionService(clock),
    decisionRecords: new DecisionRecordService(store, ingest, clock),
    meetings: new MeetingService(clock),
    openLoops,
    assimilation: new AssimilationService(store, ingest, memory, clock),
    knowledgeStatus: new KnowledgeStatusService(store.records),
    proposals,
    feedback: new FeedbackService(store, cognitive.karma, clock),
    uplift: new UpliftService(cognitive.pipeline, store.cognitive, clock),
    cognitive,
    traces,
    answerStreams,
    auth,
  });
  const providers = opts.providers ?? createProviderSet(config.env);
  const policies = policySource(config.policyDir, opts.policies);
  const execution = executionOf(config, opts.agentCatalog);
  const setup = { providers, policies, execution };
  const sessionLog = new SessionLog(store.streams, store.sessions, clock);
  const turnLeases = new TurnLeases(store.sessions, clock, config.heartbeatMs, log);
  const harness = new Harness({
    log: sessionLog,
    providers,
    tools: [...memoryTools(serviceHandlers), ...fileTools],
    clock,
    policies,
    execution,
    taskRoot: config.sessionsDir,
    leases: turnLeases,
    // Recall p50 while chat turns run at 100k chunks on SQLite: x1.25-1.29 one event a write, x1.40 four, x1.55 all.
    eventsPerWrite: config.databaseUrl ? 32 : 1,
    logError: log,
  });
  const chat = new ChatSessions(sessionLog, harness, setup, turnLeases);
  const supervisor = new Supervisor({
    log: sessionLog,
    engines: {
      native: new NativeEngine(harness, sessionLog),
      command: new CommandEngine(policies, execution),
      a2a: new A2aEngine(policies, execution),
    },
    clock,
    heartbeatMs: config.heartbeatMs,
    maxRunning: config.maxRunningSessions,
    taskRoot: config.sessionsDir,
    logError: log,
    queuedElsewhere: opts.queuedElsewhere,
  });
  if (opts.supervise) await supervisor.start();
  const background = new BackgroundSessions(sessionLog, supervisor, setup, config.sessionsDir);
  return {
    version: VERSION,
    auth,
    handlers: { ...serviceHandlers, ...buildSessionHandlers(chat, background) },
    chatThread: (call, threadId) => chat.openThread(call, threadId),
    streams: { ...buildStreamHandlers({ answerStreams }), ...buildSessionStreamHandlers(chat, background) },
    proposals,
    grounded,
    metrics: createMetrics(
      () => cognitive.pipeline.counters.totals(),
      () => search.stats(),
    ),
    log,
    store,
    memory,
    ingest,
    retriever,
    search,
    embedder,
    dense,
    cognitive,
    traces,
    autoTuner,
    supervisor,
    warmAnswers: async () => {
      lexicon?.neighbours("answer", 1);
      await planner.answer("Who decided it?", [{ key: 0, text: "Asha decided it in May.", score: 1 }], 1);
    },
    sessionsAtRest: async () =>
      !turnLeases.holding && supervisor.idle && !(opts.supervise && (await supervisor.waiting())),
    async close() {
      await supervisor.close();
      await harness.drain();
      await turnLeases.close();
      if (follow) clearInterval(follow);
      await autoTuner?.stop();
      await cognitive.stop();
      await reembed?.stop();
      handover?.stop();
      await ingest.close();
      await queries?.close();
      await planner.close();
      // A failed save costs the next start a full load, nothing else.
      if (opts.lead !== false)
        await search
          .saveSnapshots()
          .catch((err: unknown) =>
            log(`index snapshot not saved: ${err instanceof Error ? err.message : String(err)}`),
          );
      await store.close();
    },
  };
}

/** How often a process that does not re-embed looks whether another's job has made the new vectors whole. */
const HANDOVER_CHECK_MS = 5_000;

/**
 * The retrieval weights for an embedder: the given ones (tests, the eval), else GloVe's shipped fit, or the fit stored
 * for a neural model by `npm run eval -- calibrate --embedder`. A neural model's neighbours are worth the dense scan;
 * GloVe's were measured useless (eval/results/dense-leg.json).
 */
function retrievalFor(
  config: Config,
  e: Embedder | null,
  opts: RuntimeOptions,
  log: (msg: string) => void,
): RetrievalConfig {
  if (opts.retrieval) return opts.retrieval;
  const neural = e !== null && e.id !== GLOVE_EMBEDDER_ID;
  const stored = neural ? readCalibration(config.calibrationDir, e.id) : null;
  if (neural && !stored)
    log(
      `no calibration stored for ${e.id} (${calibrationFile(config.calibrationDir, e.id)}): scores use GloVe's fit; run npm run eval -- calibrate --embedder <model dir>`,
    );
  // A stored fit holds the fitted weights; what was not fitted (thread neighbours) keeps the default.
  return {
    ...defaultRetrievalConfig,
    ...stored,
    denseCandidates: config.denseKnn ?? neural,
    ...(config.softTerms ? { softTerms: softTermsSetting } : {}),
  };
}

/** The embedder a switch hands over from: the one given, else GloVe when the configured embedder is another. */
async function previousModel(
  config: Config,
  embedder: Embedder | null,
  opts: RuntimeOptions,
  modelOf: (e: Embedder | null) => DenseModel,
): Promise<DenseModel | null> {
  if (opts.previousEmbedder !== undefined) return opts.previousEmbedder && modelOf(opts.previousEmbedder);
  if (opts.embedder !== undefined || embedder === null || embedder.id === GLOVE_EMBEDDER_ID) return null;
  const glove = await createEmbedderFromEnv({ ...config.env, SMRITI_EMBEDDER: "glove", SMRITI_EMBED_MODEL: "" });
  return modelOf(glove);
}

/**
 * Where answer and pack plans are computed: worker threads in the serving process (its loop keeps answering meanwhile),
 * the calling thread in one-shot commands (a thread's start would cost more than it saves). The word knowledge is the
 * same either way: GloVe's word similarity when the embedder has it, the POS tagger and the name reader.
 */
function choosePlanner(config: Config, embedder: Embedder | null, serving: boolean): Planner {
  const words = embedder && "similarity" in embedder ? (embedder as Embedder & WordSimilarity) : null; // GloVe's word vectors; a neural embedder has none
  const threads = config.planWorkers ?? (serving ? Math.min(2, Math.max(1, availableParallelism() - 1)) : 0);
  // Word similarity a thread cannot rebuild (an embedder that is not portable) keeps the plans on the loop.
  if (threads > 0 && (!words || embedder?.portable))
    return new PlanPool(threads, {
      words: words ? embedder!.portable! : null,
      tagger: portableTagger,
      names: portableNameReader,
    });
  return localPlanner({ similar: words ? (a, b) => words.similarity(a, b) : undefined, tag: posTags, readsAsName });
}

function followTuning(
  store: Store,
  live: CognitivePipeline,
  env: NodeJS.ProcessEnv,
  everyMs: number,
  log: (msg: string) => void,
): NodeJS.Timeout {
  const read = () =>
    runtimeCognitiveConfig(store.cognitive, env).then(
      (c) => live.configure(c),
      (err: unknown) => log(`tuned parameters not read: ${String(err)}`),
    );
  return setInterval(() => void read(), everyMs).unref();
}

/** The configured store: PostgreSQL when SMRITI_DATABASE_URL is set (pg loads only then), else the SQLite file. */
export async function openStore(config: Config, background = false, notices?: AppendNotices): Promise<Store> {
  if (!config.databaseUrl)
    return openSqliteStore(config.dbFile, {
      synchronous: config.synchronous,
      backgroundCheckpoints: background,
      writerThread: background,
      notices,
    });
  const { openPostgresStore } = await import("./store/postgres/index.ts");
  return openPostgresStore(config.databaseUrl);
}

/** Index snapshots as one file per workspace in `dir`, replaced atomically. */
function indexSnapshotFiles(dir: string): IndexSnapshots {
  const fileOf = (workspaceId: string) => join(dir, `${workspaceId}.idx`);
  return {
    open: async (workspaceId) => {
      let fd: number;
      try {
        fd = openSync(fileOf(workspaceId), "r");
      } catch {
        return null;
      }
      return {
        size: fstatSync(fd).size,
        read: (target, position) => readSync(fd, target, 0, target.length, position),
        close: () => closeSync(fd),
      };
    },
    write: (workspaceId, parts) => writeFileAtomic(fileOf(workspaceId), parts),
    remove: (workspaceId) => rm(fileOf(workspaceId), { force: true }),
  };
}

/** The operator's catalog (read once, here: a bad one stops the start, naming its field) and the host's isolation. */
function executionOf(config: Config, given: unknown): Execution {
  const catalog =
    given !== undefined
      ? parseCatalog(given, "(given)")
      : config.agentCatalog
        ? loadCatalog(config.agentCatalog)
        : null;
  const hidden = [config.dataDir, config.policyDir, ...(config.agentCatalog ? [config.agentCatalog] : [])];
  return {
    rules: new ExecutionRules(catalog, config.approvalFloor),
    isolation: new Isolation(hidden, config.bubblewrapPaths, config.sessionsDir),
  };
}
