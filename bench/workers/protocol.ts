// Messages between the bench and its client processes (fork IPC).

export interface RecallClientInit {
  url: string;
  token: string;
  queries: string[];
  mode: "hybrid" | "lexical" | "vector";
}

/** `count`: run that many queries; `until-stop`: loop until a "stop" message. */
export type RecallClientCommand = { type: "run"; count: number } | { type: "loop" } | { type: "stop" };

export interface RecallClientSamples {
  type: "samples";
  latencies: number[];
  /** True when the loop ran out of distinct queries and repeated some (cached query vectors). */
  wrapped: boolean;
}

export interface IngestClientInit {
  url: string;
  token: string;
  seed: number;
  documents: number;
  chunksPerDocument: number;
  pathPrefix: string;
  /** Stop sending new documents after this long. */
  maxSeconds: number;
  /** Requests in flight at once (1: one document after another; `smriti ingest` keeps 4). */
  inFlight: number;
}

export interface IngestClientDone {
  type: "done";
  documents: number;
  chunks: number;
  seconds: number;
  requestMs: number[];
}

export interface SessionClientInit {
  url: string;
  token: string;
}

/** `start`: start these tasks at once and follow every `followEvery`-th; the client answers with `started`, then `arrivals` once every followed stream ended. */
export type SessionClientCommand = { type: "start"; tasks: string[]; provider: string; followEvery: number };

export interface SessionClientStarted {
  type: "started";
  sessionIds: string[];
}

export interface SessionClientReport {
  type: "arrivals";
  /** Per followed session: when its stream opened (its headers arrived) and when each event arrived (ms since the epoch). */
  sessions: { sessionId: string; connected: number; seen: { seq: number; at: number }[] }[];
}

export interface LoadClientInit {
  url: string;
  token: string;
  queries: string[];
  mode: "hybrid" | "lexical" | "vector";
  connections: number[];
  /** Each connection count runs `rounds` rounds of `seconds` each, back to back, the queries rotating on. */
  seconds: number;
  rounds: number;
  /** The server's processes (one, or a worker group's primary and workers), whose CPU time each step reads from /proc. */
  serverPids: number[];
}

/** One autocannon run of a step. */
export interface LoadRound {
  requestsPerSec: number;
  p50: number;
  p99: number;
  /** CPU of each server process (LoadClientInit.serverPids, in order) during the round, in cores. */
  processCores: number[];
  /** What the rest of the machine used meanwhile (all busy CPU but the server's and the load generator's), in cores. */
  otherCores: number;
  /** Established connections each server process held halfway through the round. */
  processConnections: number[];
}

/** One connection count, measured in rounds: latencies in ms (autocannon's resolution is 1 ms). */
export interface LoadStep {
  connections: number;
  /** Seconds of each round. */
  seconds: number;
  /** Over all rounds: requests / seconds. */
  requestsPerSec: number;
  rounds: LoadRound[];
  /** The rounds' highest req/s over their lowest, minus 1 (0.15: within 15% of each other). */
  spread: number;
  /** How many distinct queries the load rotates through (at least MIN_ROTATING_QUERIES). */
  distinctQueries: number;
  requests: number;
  /** Mean latency, ms with decimals (autocannon's percentiles are whole milliseconds); p50: the rounds' median; p99: the worst round's. */
  mean: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** True when the run outlasted the distinct queries and repeated some. */
  queriesRepeated: boolean;
  /** CPU the server process (all its threads) and this load generator used during the step, in cores. */
  serverCores: number;
  clientCores: number;
  /** The server's CPU time per answered request. */
  serverCpuMsPerRequest: number;
}

export interface TurnClientInit {
  url: string;
  token: string;
  /** Its CPU priority (nice value); unset: the bench's. */
  nice?: number;
}

/** Chat turns back to back, a fresh session every `turnsPerSession`. */
export interface TurnClientCommand {
  type: "turns";
  messages: string[];
  turnsPerSession: number;
}

/** Per turn: ms to the first `token` event and to the stream's end, and how many events it streamed. */
export interface TurnClientReport {
  type: "turns";
  turns: { first: number; end: number; events: number }[];
  /** CPU time the client spent on them (user + system). */
  cpuMs: number;
}

/** A process that keeps `cores` of CPU busy (whole cores spin; the fraction spins that share of each period). */
export interface SpinnerInit {
  cores: number;
}
