// Shared parts of the store conformance suites: a fresh store per test, fixtures, and searches through the engine.
import { afterEach } from "vitest";
import type { DocumentKind } from "../../../src/domain/text/chunk.ts";
import type { EventDraft } from "../../../src/ports/audit-log.ts";
import type { Store } from "../../../src/ports/store.ts";
import { SearchEngine } from "../../../src/search/engine.ts";
import type { ChunkFilter } from "../../../src/search/types.ts";
import { prepareDocument as prepare, T0 } from "../../helpers/documents.ts";

/**
 * `makeStore()` opens a fresh, empty store; `makeStore(existing)` opens a second handle on the same
 * backing storage as `existing` (another connection, as another process would have).
 */
export type StoreFactory = (sharedWith?: Store) => Store | Promise<Store>;

export const DAY = 86_400_000;

/** Stores handles opened by one suite and closes them after each test. */
export function storeHandles(makeStore: StoreFactory) {
  const open: Store[] = [];
  afterEach(async () => {
    for (const s of open.splice(0).reverse()) await s.close();
  });
  const fresh = async (sharedWith?: Store) => {
    const s = await makeStore(sharedWith);
    open.push(s);
    return s;
  };
  const twoWorkspaces = async () => {
    const store = await fresh();
    const a = (await store.workspaces.ensureWorkspace("alpha", T0)).id;
    const b = (await store.workspaces.ensureWorkspace("beta", T0)).id;
    return { store, a, b };
  };
  return { fresh, twoWorkspaces };
}

export async function put(
  store: Store,
  ws: string,
  sourcePath: string,
  content: string,
  opts: { kind?: DocumentKind; authoredAt?: number } = {},
): Promise<void> {
  const { doc, chunks } = prepare(sourcePath, content, opts);
  await store.documents.replaceDocument(ws, doc, chunks);
}

export const unit = (...xs: number[]) => {
  const v = new Float32Array(xs);
  const n = Math.hypot(...xs);
  return v.map((x) => x / n);
};

export const draft = (type: string, payload: unknown, at = T0): EventDraft => ({
  type,
  actorId: null,
  tokenId: null,
  at,
  trajectoryId: null,
  payload,
});

const engines = new WeakMap<Store, SearchEngine>();

/** The search engine fed by this store handle (one per handle, as each process has its own). */
export function engineOf(store: Store): SearchEngine {
  const known = engines.get(store);
  if (known) return known;
  const engine = new SearchEngine(store);
  engines.set(store, engine);
  return engine;
}

/** BM25 hits best first, as the engine over this store's feed finds them. */
export async function lexical(store: Store, ws: string, terms: readonly string[], k: number, filter: ChunkFilter = {}) {
  const found = await engineOf(store).search({
    workspaceId: ws,
    terms,
    lexicalK: k,
    dense: null,
    expansion: null,
    filter,
  });
  return found.hits.map((h) => ({ id: h.id, score: h.bm25 }));
}

/** Nearest chunks by cosine, best first, from the engine's vector index for this embedder. */
export async function dense(
  store: Store,
  ws: string,
  embedderId: string,
  vector: Float32Array,
  k: number,
  filter: ChunkFilter = {},
) {
  const found = await engineOf(store).search({
    workspaceId: ws,
    terms: [],
    lexicalK: 0,
    dense: { embedderId, vector, k },
    expansion: null,
    filter,
  });
  return found.hits.map((h) => ({ id: h.id, score: h.dense! }));
}
