// The retrieval sets' fit / held-out split, shared by calibration and the recall ideas: LoCoMo conv-26, -30, -41 fit
// and conv-42, -43 held out; SciFact even / odd query ids; LongMemEval even / odd question index.
const FIT_CONVERSATIONS = new Set(["conv-26", "conv-30", "conv-41"]);

export type Split = "fit" | "test";

/** The split of a query (its id, vault and index in its set). */
export const splitOf = (queryId: string, vault: string, index = 0): Split =>
  vault === "scifact"
    ? Number(queryId) % 2 === 0
      ? "fit"
      : "test"
    : vault.startsWith("conv-")
      ? FIT_CONVERSATIONS.has(vault)
        ? "fit"
        : "test"
      : index % 2 === 0
        ? "fit"
        : "test";
