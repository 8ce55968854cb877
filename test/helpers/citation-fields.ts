// The fields every Citation carries (SPEC "Citation" and the event time of issue 45), sorted, as tests compare them.
export const CITATION_FIELDS = [
  "anchor",
  "chunk_hash",
  "occurred_at",
  "retrieved_at",
  "score",
  "source_path",
  "text_span",
] as const;
