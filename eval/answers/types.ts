// An answer eval set: vaults to ingest (an EvalSet, so eval/ingest.ts loads it) and questions with gold answers.
import type { EvalSet } from "../types.ts";

export interface AnswerQuestion {
  id: string;
  vault: string;
  text: string;
  /** Reporting group: XQuAD "all"; LoCoMo its category name. */
  group: string;
  /** Tuning split ("tune") or held out ("test"), fixed by the loader. */
  split: "tune" | "test";
  /** Gold answer strings; empty when the right behaviour is to abstain (LoCoMo category 5). */
  golds: string[];
  /** The documents that hold the answer (XQuAD: its paragraph; LoCoMo: the evidence turns). */
  goldSources: string[];
  /** A gold answer occurs literally (normalized) in the gold documents: an extractive answer can contain it. */
  extractable: boolean;
}

export interface AnswerSet {
  name: string;
  set: EvalSet;
  questions: AnswerQuestion[];
  splitNote: string;
  notes: string[];
}
