// An in-process client (Node only): the same calls as createClient, served by the Hono app's app.request, so behaviour is identical.
import { loadConfig, type Config } from "./config.ts";
import type { CognitiveConfig } from "./cognitive/params.ts";
import { createRuntime, type FullRuntime } from "./main.ts";
import { createProviderSet } from "./llm/providers.ts";
import type { Embedder } from "./ports/embedding.ts";
import type { LlmProvider } from "./ports/llm.ts";
import type { Store } from "./ports/store.ts";
import type { AuthService } from "./services/auth.ts";
import { ALL_SCOPES } from "./contract/scopes.ts";
import type { CallContext } from "./ports/call-context.ts";
import { createHttpApp } from "./transports/http/app.ts";
import { createClient, type SmritiClient } from "./client/index.ts";

/**
 * Optional dependencies forwarded to createRuntime (the stack builder): dataDir / dbPath, config, memoryStore,
 * cognitive, embedder, workspace, actorId, policyCatalog (sessions' policies by name) and llmProvider (the sessions'
 * default provider). A decision store is not taken apart from the memory store: a decision is written in one
 * transaction with its audit event and source document, which a second store would split, so `decisionStore` must be
 * the memoryStore itself or be left out (anything else is an error).
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
  /** Session policies by name (the PolicyFile JSON of docs/sessions.md "Session policy"); a session's policy_path looks here before SMRITI_POLICY_DIR. */
  policyCatalog?: Readonly<Record<string, unknown>>;
  /** The agent catalog JSON (README "Security model"), instead of the file SMRITI_AGENT_CATALOG names. */
  agentCatalog?: unknown;
  /** Decisions live in the memory store: only that store (or nothing) is accepted. */
  decisionStore?: Store;
  /** A provider of your own (the LlmProvider port): the sessions' default, extractive after it. */
  llmProvider?: LlmProvider;
}

export type { LlmProvider } from "./ports/llm.ts";

export type LocalClient = SmritiClient & { runtime: FullRuntime; close(): Promise<void> };

export async function createLocalClient(opts: LocalClientOptions = {}): Promise<LocalClient> {
  const base = opts.config ?? loadConfig(process.env, { data: opts.dataDir });
  const config = opts.dbPath ? { ...base, dbFile: opts.dbPath } : base;
  if (opts.decisionStore && opts.decisionStore !== opts.memoryStore)
    throw new Error(
      "decisionStore must be the memoryStore: a decision is stored in one transaction with its audit event and source document",
    );
  const runtime = await createRuntime(config, {
    log: () => {},
    ...(opts.policyCatalog ? { policies: opts.policyCatalog } : {}),
    ...(opts.agentCatalog !== undefined ? { agentCatalog: opts.agentCatalog } : {}),
    ...(opts.llmProvider ? { providers: createProviderSet(config.env, { provider: opts.llmProvider }) } : {}),
    ...(opts.memoryStore ? { store: opts.memoryStore } : {}),
    ...(opts.cognitive ? { cognitive: opts.cognitive } : {}),
    ...(opts.embedder !== undefined ? { embedder: opts.embedder } : {}),
  });
  const workspace = await runtime.store.workspaces.findWorkspace(opts.workspace ?? "default");
  if (!workspace) {
    await runtime.close();
    throw new Error(`no workspace '${opts.workspace}'`);
  }
  // The caller holds the database itself, so it is trusted like the CLI: a fixed call context instead of a bearer token (nothing is issued or stored).
  const call: CallContext = {
    workspaceId: workspace.id,
    workspaceName: workspace.name,
    tokenId: "local",
    actorId: opts.actorId ?? null,
    scopes: ALL_SCOPES,
  };
  const auth = Object.assign(Object.create(runtime.auth) as AuthService, { authenticate: async () => call });
  const app = createHttpApp({ ...runtime, auth });
  const inProcess = ((input: string | URL | Request, init?: RequestInit) =>
    Promise.resolve(app.request(input, init))) as typeof fetch;
  return {
    ...createClient({ baseUrl: "http://smriti.local", token: "local", fetch: inProcess }),
    runtime,
    close: () => runtime.close(),
  };
}
