// An in-process client (Node only): the same calls as createClient, served by the Hono app's app.request, so behaviour is identical.
import { loadConfig, type Config } from "./config.ts";
import type { CognitiveConfig } from "./cognitive/params.ts";
import { createRuntime, type FullRuntime } from "./main.ts";
import type { Embedder } from "./ports/embedding.ts";
import type { Store } from "./ports/store.ts";
import type { AuthService } from "./services/auth.ts";
import type { CallContext } from "./services/context.ts";
import { createHttpApp } from "./transports/http/app.ts";
import { createClient, type SmritiClient } from "./client/index.ts";

/**
 * Optional dependencies forwarded to createRuntime (the stack builder).
 * Honoured: dataDir / dbPath, config, memoryStore, cognitive, embedder, workspace, actorId.
 * Accepted but unused: policyCatalog, decisionStore, llmProvider. Memory answers need no language model (they are
 * extractive), decisions live in the memory store, and sessions take their providers and policy files from
 * configuration (SMRITI_LLM_*, SMRITI_POLICY_DIR); they are accepted so callers written against the spec's builder
 * signature work unchanged.
 */
export interface LocalClientOptions {
  /** Data directory (default $SMRITI_DATA_DIR or ./data). */
  dataDir?: string | undefined;
  /** SQLite file; overrides the one under dataDir. */
  dbPath?: string;
  /** A full service configuration (default: from the environment and dataDir). */
  config?: Config;
  /** A Store to use instead of opening SQLite (e.g. a shared or test store). */
  memoryStore?: Store;
  /** The cognitive stack's switches and parameters. */
  cognitive?: CognitiveConfig;
  /** null = lexical only; default: the configured embedder. */
  embedder?: Embedder | null;
  /** Workspace the calls act in (default "default"). */
  workspace?: string | undefined;
  /** Actor first-person words resolve to (x-svc-actor-id). */
  actorId?: string;
  /** Accepted, unused: session policy files come from SMRITI_POLICY_DIR. */
  policyCatalog?: unknown;
  /** Accepted, unused: decisions live in the memory store. */
  decisionStore?: unknown;
  /** Accepted, unused: session providers come from SMRITI_LLM_* configuration. */
  llmProvider?: unknown;
}

export type LocalClient = SmritiClient & { runtime: FullRuntime; close(): Promise<void> };

export async function createLocalClient(opts: LocalClientOptions = {}): Promise<LocalClient> {
  const base = opts.config ?? loadConfig(process.env, { data: opts.dataDir });
  const config = opts.dbPath ? { ...base, dbFile: opts.dbPath } : base;
  const runtime = await createRuntime(config, {
    log: () => {},
    ...(opts.memoryStore ? { store: opts.memoryStore } : {}),
    ...(opts.cognitive ? { cognitive: opts.cognitive } : {}),
    ...(opts.embedder !== undefined ? { embedder: opts.embedder } : {}),
  });
  const workspace = await runtime.store.findWorkspace(opts.workspace ?? "default");
  if (!workspace) {
    await runtime.close();
    throw new Error(`no workspace '${opts.workspace}'`);
  }
  // The caller holds the database itself, so it is trusted like the CLI: a fixed call context instead of a bearer token (nothing is issued or stored).
  const call: CallContext = { workspaceId: workspace.id, workspaceName: workspace.name, tokenId: "local", actorId: opts.actorId ?? null };
  const auth = Object.assign(Object.create(runtime.auth) as AuthService, { authenticate: async () => call });
  const app = createHttpApp({ ...runtime, auth });
  const inProcess = ((input: string | URL | Request, init?: RequestInit) => Promise.resolve(app.request(input, init))) as typeof fetch;
  return { ...createClient({ baseUrl: "http://smriti.local", token: "local", fetch: inProcess }), runtime, close: () => runtime.close() };
}
