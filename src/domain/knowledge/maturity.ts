// Knowledge maturity: (stage + quality) / 3, so each stage owns a third of [0, 1] and better-sourced knowledge ranks higher within it.
export const STAGES = ["shravan", "manan", "nididhyasan"] as const;
export type Stage = (typeof STAGES)[number];

export const MATURITY_LEVEL = { shravan: "captured", manan: "reflected", nididhyasan: "practiced" } as const;
export const NEXT_STAGE = { shravan: "manan", manan: "nididhyasan", nididhyasan: null } as const;

export function knowledgeMaturity(stage: Stage, trust: number, relevance: number): number {
  const quality = (trust + relevance) / 2;
  return Number(((STAGES.indexOf(stage) + quality) / 3).toFixed(4));
}
