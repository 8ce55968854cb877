// Background embedding: fills vectors the active embedder lacks (a new embedder, earlier failures) without blocking recall.
import { setTimeout as sleep } from "node:timers/promises";
import type { Embedder } from "../../ports/embedding.ts";
import type { DocumentStore } from "../../ports/documents.ts";

const BATCH = 128;

export interface Reembedder {
  /** Starts a pass unless one is running; passes end when nothing is missing. */
  kick(): void;
  stop(): Promise<void>;
}

/**
 * Runs a pass at start (an embedder switch leaves every chunk without a vector) and whenever kicked; `onWhole` hears when a
 * pass finds nothing missing. `embed` does the embedding (default the embedder's own; a neural one runs on the ingest threads).
 */
export function startReembedder(
  store: Pick<DocumentStore, "chunksMissingEmbedding" | "putEmbeddings">,
  embedder: Embedder,
  log: (msg: string) => void,
  retryMs = 30_000,
  opts: { onWhole?: () => void; embed?: (texts: string[]) => Promise<Float32Array[]> } = {},
): Reembedder {
  const embed = opts.embed ?? ((texts: string[]) => embedder.embed(texts));
  let stopped = false;
  let running: Promise<void> | null = null;
  const pass = async () => {
    while (!stopped) {
      const todo = await store.chunksMissingEmbedding(embedder.id, BATCH);
      if (todo.length === 0) return opts.onWhole?.();
      try {
        const vectors = await embed(todo.map((t) => t.text));
        if (!stopped) await store.putEmbeddings(embedder.id, new Map(todo.map((t, i) => [t.chunkHash, vectors[i]!])));
      } catch (err) {
        log(`background embedding failed, retrying in ${retryMs} ms: ${(err as Error).message}`);
        await sleep(retryMs, undefined, { ref: false });
      }
      await sleep(0); // one batch per turn of the event loop: callers keep being served
    }
  };
  const kick = () => {
    running ??= pass()
      .catch((err: unknown) => log(`background embedding stopped: ${(err as Error).message}`))
      .finally(() => (running = null));
  };
  kick();
  return {
    kick,
    async stop() {
      stopped = true;
      await Promise.race([running, sleep(100)]);
    },
  };
}
