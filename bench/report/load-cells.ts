// Table cells for a load step measured in rounds: each round's req/s, their spread, and each server process's cores.
import type { LoadStep } from "../workers/protocol.ts";

/** "1204 / 1187 / 1230". */
export const roundsCell = (x: LoadStep): string => x.rounds.map((r) => Math.round(r.requestsPerSec)).join(" / ");

/** The highest round over the lowest, as a percentage: "4%". */
export const spreadCell = (x: LoadStep): string => `${Math.round(x.spread * 100)}%`;

/** Per round, the cores of each process past the first `skip` (a worker group's primary): "0.93+0.91 / 0.95+0.88". */
export const processCoresCell = (x: LoadStep, skip: number): string =>
  x.rounds.map((r) => r.processCores.slice(skip).join("+")).join(" / ");

/** Per round, the connections each worker held: "8+8 / 11+5". */
export const connectionsCell = (x: LoadStep, skip: number): string =>
  x.rounds.map((r) => r.processConnections.slice(skip).join("+")).join(" / ");

/** Per round, the cores the rest of the machine used meanwhile: "0.02 / 0.61 / 0.05". */
export const otherCoresCell = (x: LoadStep): string => x.rounds.map((r) => r.otherCores).join(" / ");
