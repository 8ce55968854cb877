// Switching embedders: recall keeps embedding queries with the previous embedder, against its vectors, until every
// chunk has a vector from the new one (the re-embed job fills them), then hands over at once.
import type { DocumentStore } from "../../ports/documents.ts";
import type { DenseModel, DenseSource } from "../../search/retrieval-config.ts";

type Missing = Pick<DocumentStore, "chunksMissingEmbedding" | "getEmbeddings">;

/** Chunks ingested during a switch get the new model's vectors only; past this many, a restart gives up the handover. */
const ADDED_DURING_SWITCH = 10_000;

/** Whether some chunk of the store lacks the embedder's vector. */
async function lacksVectors(store: Missing, embedderId: string): Promise<boolean> {
  return (await store.chunksMissingEmbedding(embedderId, 1)).length > 0;
}

export class EmbedderHandover implements DenseSource {
  private model: DenseModel;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Missing,
    previous: DenseModel,
    private readonly next: DenseModel,
    private readonly log: (msg: string) => void,
  ) {
    this.model = previous;
  }

  current(): DenseModel {
    return this.model;
  }

  /** True once queries use the new embedder. */
  get handedOver(): boolean {
    return this.model === this.next;
  }

  /** Hands over when the new embedder's vectors are whole; true when it has (now or before). */
  async check(): Promise<boolean> {
    if (this.handedOver) return true;
    if (await lacksVectors(this.store, this.next.embedder!.id)) return false;
    this.log(`recall now uses ${this.next.embedder!.id}: every chunk has its vector`);
    this.model = this.next;
    this.stop();
    return true;
  }

  /** Checks every `everyMs` until handed over (a process that does not re-embed sees another's job finish). */
  follow(everyMs: number): void {
    this.timer ??= setInterval(() => void this.check().catch(() => {}), everyMs).unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** Whether every chunk has `prev`'s vector or, ingested since the switch began, `next`'s. */
async function coversAll(store: Missing, prev: string, next: string): Promise<boolean> {
  const lacking = await store.chunksMissingEmbedding(prev, ADDED_DURING_SWITCH + 1);
  if (lacking.length > ADDED_DURING_SWITCH) return false;
  const have = await store.getEmbeddings(
    next,
    lacking.map((c) => c.chunkHash),
  );
  return have.size === lacking.length;
}

/**
 * The dense source for a start with `next`: itself when its vectors are whole (or there is nothing to hand over from),
 * else a handover from `previous()` when its vectors are whole (but for chunks added since, which have `next`'s).
 */
export async function planHandover(
  store: Missing,
  next: DenseModel,
  previous: () => Promise<DenseModel | null>,
  log: (msg: string) => void,
): Promise<DenseSource | EmbedderHandover> {
  const fixed = { current: () => next };
  if (!next.embedder || !(await lacksVectors(store, next.embedder.id))) return fixed;
  const prev = await previous();
  if (
    !prev?.embedder ||
    prev.embedder.id === next.embedder.id ||
    !(await coversAll(store, prev.embedder.id, next.embedder.id))
  ) {
    log(
      `embedding every chunk with ${next.embedder.id} in the background; until then a chunk without its vector is found by its words alone`,
    );
    return fixed;
  }
  log(
    `embedding every chunk with ${next.embedder.id} in the background; recall uses ${prev.embedder.id} until it is done`,
  );
  return new EmbedderHandover(store, prev, next, log);
}
