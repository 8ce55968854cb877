// Brings a store to the full corpus: measured ingest from empty within a time budget; when the budget runs
// out, the rest is filled unmeasured except a final tail, measured again at (nearly) full size.
import type { BenchDocument } from "../corpus/documents.ts";
import { fillUnmeasured } from "../lib/fill.ts";
import type { Embedder } from "../../src/ports/embedding.ts";
import { benchIngest, type IngestResult } from "./ingest.ts";

export interface SizedIngest {
  fromEmpty: IngestResult;
  /** Only when fromEmpty was time-boxed: the marginal ingest rate with the store (nearly) full. */
  atSize: IngestResult | null;
  filledDocuments: number;
}

export async function ingestToSize(
  dir: string,
  embedder: Embedder | null,
  docs: readonly BenchDocument[],
  opts: { label: string; budgetSeconds: number; tailChunks: number },
): Promise<SizedIngest> {
  const fromEmpty = await benchIngest(dir, embedder, docs, { label: opts.label, budgetSeconds: opts.budgetSeconds });
  if (fromEmpty.completed) return { fromEmpty, atSize: null, filledDocuments: 0 };
  const rest = docs.slice(fromEmpty.documents);
  let tailStart = rest.length;
  for (let tailChunks = 0; tailStart > 0 && tailChunks < opts.tailChunks;) tailChunks += rest[--tailStart]!.sections;
  await fillUnmeasured(dir, embedder, rest.slice(0, tailStart));
  const startChunks =
    docs.reduce((n, d) => n + d.sections, 0) - rest.slice(tailStart).reduce((n, d) => n + d.sections, 0);
  const atSize = await benchIngest(dir, embedder, rest.slice(tailStart), {
    label: `${opts.label} at size`,
    startChunks,
    budgetSeconds: opts.budgetSeconds,
  });
  const unmeasured = rest.slice(tailStart + atSize.documents);
  await fillUnmeasured(dir, embedder, unmeasured);
  return { fromEmpty, atSize, filledDocuments: tailStart + unmeasured.length };
}
