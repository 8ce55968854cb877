// Command-line options of `npm run bench` (`--quick`: 10k chunks only, fewer queries).
import type { LoopLimits } from "./timed-loop.ts";

export interface BenchOptions {
  quick: boolean;
  sizes: number[];
  /** Measured queries per in-process recall mode (HTTP and pack use fractions of it). */
  queries: number;
  warmup: number;
  seed: number;
  contention: boolean;
  /** The PostgreSQL comparison (scenarios/postgres.ts); `--no-postgres` leaves it out. */
  postgres: boolean;
  keepData: boolean;
  /** Measured ingest stops after this long; the rest is loaded unmeasured (see scenarios/ingest-to-size.ts). */
  ingestBudgetSeconds: number;
  /** Time limits that keep a slow build's run bounded; each still makes its minimum count. */
  limits: {
    recall: LoopLimits;
    pack: LoopLimits;
    httpSequential: LoopLimits;
    httpConcurrent: LoopLimits;
    contentionIngestSeconds: number;
    /** Each load step (a connection count) runs loadRounds rounds of loadRoundSeconds, each round reported. */
    loadRoundSeconds: number;
    loadRounds: number;
  };
}

export function parseOptions(argv: readonly string[]): BenchOptions {
  const flag = (name: string) => argv.includes(`--${name}`);
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const quick = flag("quick");
  const sizes = value("sizes")?.split(",").map(Number) ?? (quick ? [10_000] : [10_000, 100_000]);
  if (sizes.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error("--sizes=N,M takes positive integers");
  return {
    quick,
    sizes,
    queries: Number(value("queries") ?? (quick ? 500 : 1000)),
    warmup: 50,
    seed: Number(value("seed") ?? 42),
    contention: !flag("no-contention"),
    postgres: !flag("no-postgres"),
    keepData: flag("keep-data"),
    ingestBudgetSeconds: Number(value("ingest-budget") ?? 60),
    limits: {
      recall: { minCount: 500, maxSeconds: 40 },
      pack: { minCount: 100, maxSeconds: 25 },
      httpSequential: { minCount: 300, maxSeconds: 30 },
      httpConcurrent: { minCount: 200, maxSeconds: 20 },
      contentionIngestSeconds: 40,
      loadRoundSeconds: quick ? 3 : 5,
      loadRounds: 3,
    },
  };
}
