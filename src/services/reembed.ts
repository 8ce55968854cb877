// Background embedding: fills vectors the active embedder lacks (new embedder, earlier failures) without blocking recall.
import { setTimeout as sleep } from "node:timers/promises";
import type { Embedder, Store } from "../ports.ts";

const BATCH = 128;

/** Runs until stopped; each batch is one short write, and the loop idles between passes. */
export function startReembedder(store: Store, embedder: Embedder, log: (msg: string) => void, idleMs = 30_000): { stop(): Promise<void> } {
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const todo = store.chunksMissingEmbedding(embedder.id, BATCH);
      if (todo.length === 0) {
        await sleep(idleMs, undefined, { ref: false }).catch(() => {});
        continue;
      }
      try {
        const vectors = await embedder.embed(todo.map((t) => t.text));
        if (!stopped) store.putEmbeddings(embedder.id, new Map(todo.map((t, i) => [t.chunkHash, vectors[i]!])));
      } catch (err) {
        log(`background embedding failed, retrying later: ${(err as Error).message}`);
        await sleep(idleMs, undefined, { ref: false }).catch(() => {});
      }
      await sleep(0);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await Promise.race([done, sleep(100)]);
    },
  };
}
