// Builds the stack: the thirteen layers in the order their hooks run, over the runtime's shared state.
import type { CognitiveStore } from "../ports/cognitive.ts";
import type { WordNeighbours } from "../ports/embedding.ts";
import { CounterRegistry } from "./counters.ts";
import { ahamkara } from "./layers/ahamkara.ts";
import { atman } from "./layers/atman.ts";
import { bhavaMonitor } from "./layers/bhava-monitor.ts";
import { buddhi } from "./layers/buddhi.ts";
import { createChitta, Impressions } from "./layers/chitta.ts";
import { dhyana } from "./layers/dhyana.ts";
import { indriya } from "./layers/indriya.ts";
import { createKarma, KarmaLedger } from "./layers/karma.ts";
import { createManas } from "./layers/manas.ts";
import { prana } from "./layers/prana.ts";
import { sabha } from "./layers/sabha.ts";
import { sankalpa } from "./layers/sankalpa.ts";
import { viveka } from "./layers/viveka.ts";
import { defaultCognitiveConfig, type CognitiveConfig } from "./params.ts";
import { CognitivePipeline } from "./pipeline.ts";
import type { Layer } from "./types.ts";

export interface StackOptions {
  store: CognitiveStore;
  now: () => number;
  lexicon: WordNeighbours | null;
  config?: CognitiveConfig;
  log?: (msg: string) => void;
  /** Restore what earlier runs learned (chitta's impressions); default true. */
  restore?: boolean;
}

/** The pipeline plus the learning state a feedback route or the inspection routes need. */
export interface CognitiveStack {
  pipeline: CognitivePipeline;
  karma: KarmaLedger;
  impressions: Impressions;
  /** Where the counters and durable figures live (the inspection routes read them). */
  store: CognitiveStore;
  /** Writes counters and impressions every `ms` in the background (the server). */
  startFlushing(ms?: number): void;
  /** Stops the timers and writes what is pending. */
  stop(): Promise<void>;
}

export async function buildCognitiveStack(opts: StackOptions): Promise<CognitiveStack> {
  const karma = new KarmaLedger();
  const impressions = new Impressions(opts.store, opts.log);
  if (opts.restore !== false) impressions.restore(await opts.store.listImpressions());
  // Query side first (clean, budget, who, feeling, goal, expand, convene), then evidence (feedback, memory, discern, focus), then judge and guard.
  const layers: Layer[] = [
    indriya,
    prana,
    ahamkara,
    bhavaMonitor,
    sankalpa,
    createManas(opts.lexicon),
    sabha,
    createKarma(karma),
    createChitta(impressions),
    viveka,
    dhyana,
    buddhi,
    atman,
  ];
  const counters = new CounterRegistry(opts.store, opts.now, opts.log);
  return {
    pipeline: new CognitivePipeline(layers, opts.config ?? defaultCognitiveConfig, counters),
    karma,
    impressions,
    store: opts.store,
    startFlushing(ms) {
      counters.startFlushing(ms);
      impressions.startFlushing(ms);
    },
    async stop() {
      await Promise.all([counters.stop(), impressions.stop()]);
    },
  };
}
