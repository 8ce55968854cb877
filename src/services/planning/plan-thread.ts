// Runs on a planning worker thread: answer and pack plans with the same code and word knowledge as the loop's.
import type { Language, NameReader, Tagger } from "../../domain/answering/language.ts";
import type { Embedder, WordSimilarity } from "../../ports/embedding.ts";
import { serveThread } from "../../threads/pool.ts";
import { rebuildEmbedder } from "../thread-embedder.ts";
import { localPlanner, type Planner } from "./planner.ts";
import type { PlanReply, PlanRequest, PortableLanguage } from "./plan-pool.ts";

let planner: Promise<Planner> | null = null;

serveThread<PlanRequest, PlanReply>(async (req, data) => {
  planner ??= plannerOf(data as PortableLanguage);
  const p = await planner;
  if (req.kind === "answer")
    return { body: { kind: "answer", plan: await p.answer(req.question, req.chunks, req.keep) } };
  return { body: { kind: "pack", plan: await p.pack(req.candidates, req.opts) } };
});

/** The loop's Language: GloVe's word similarity (its tables shared with the loop, not copied), the same tagger and name reader. */
async function plannerOf({ words: spec, tagger, names }: PortableLanguage): Promise<Planner> {
  const words = (await rebuildEmbedder(spec)) as (Embedder & Partial<WordSimilarity>) | null;
  const tag = tagger ? ((await import(tagger.module)) as Record<string, Tagger>)[tagger.name] : undefined;
  const readsAsName = names ? ((await import(names.module)) as Record<string, NameReader>)[names.name] : undefined;
  const language: Language = {
    similar: words?.similarity ? (a, b) => words.similarity!(a, b) : undefined,
    tag,
    readsAsName,
  };
  return localPlanner(language);
}
