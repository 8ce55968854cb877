// Test harness: a real runtime on a temp SQLite vault, its Hono app, and a token, torn down by cleanup().
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, type Config } from "../../src/config.ts";
import { createRuntime, type FullRuntime } from "../../src/main.ts";
import type { Clock } from "../../src/ports/clock.ts";
import type { Embedder } from "../../src/ports/embedding.ts";
import { ALL_SCOPES, type Scope } from "../../src/contract/scopes.ts";
import { createHttpApp } from "../../src/transports/http/app.ts";
import { freeFormCatalog } from "./catalog.ts";
import { freshSchemaUrl } from "./postgres.ts";

export interface TestServiceOptions {
  /** Sets SVC_MULTI_TENANT=1 so tokens of other workspaces work. */
  multiTenant?: boolean;
  /** Defaults to null (lexical only); pass loadGloveEmbedder() when a test needs vectors. */
  embedder?: Embedder | null;
  /** Allowed x-svc-actor-id values of the default token. */
  actors?: string[];
  /** Scopes of the default token and of issueToken's (default all four: today's tests act as the operator). */
  scopes?: readonly Scope[];
  /** Workspace of the default token (default "default"). */
  workspace?: string;
  clock?: Clock;
  /** More configuration (SMRITI_LLM_*, SMRITI_POLICY_DIR, ...). */
  env?: Record<string, string>;
  /** An existing data directory, as after a restart (default: a new temporary one). */
  dataDir?: string;
  /** The agent catalog (default: free-form commands in the process sandbox, test/helpers/catalog.ts); null: none. */
  agentCatalog?: unknown;
  /** False: the runtime is one of a `smriti serve --workers` group's other workers (no tuner, re-embedding or snapshots). */
  lead?: boolean;
}

export interface TestService {
  app: ReturnType<typeof createHttpApp>;
  runtime: FullRuntime;
  config: Config;
  dataDir: string;
  token: string;
  workspaceId: string;
  /** Another token; in a multi-tenant runtime it may belong to another workspace. */
  issueToken(
    workspace?: string,
    actors?: string[],
    scopes?: readonly Scope[],
  ): Promise<{ token: string; id: string; workspaceId: string }>;
  /** POST as JSON with the default token; a string body is sent as is, headers override the defaults (null removes one). */
  post(path: string, body: unknown, headers?: Record<string, string | null>): Promise<Response>;
  /** GET with the default token; `query` becomes the search string. */
  get(path: string, query?: Record<string, string>, headers?: Record<string, string | null>): Promise<Response>;
  cleanup(): Promise<void>;
}

export async function startTestService(opts: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "smriti-test-"));
  chmodSync(dataDir, 0o755); // as a data directory the service makes: bubblewrap, run as nobody, walks to its task workspaces
  const store = process.env["SMRITI_TEST_STORE"] === "postgres" ? { SMRITI_DATABASE_URL: await schemaOf(dataDir) } : {};
  const config = loadConfig(
    { SVC_MULTI_TENANT: opts.multiTenant ? "1" : "0", ...store, ...opts.env },
    { data: dataDir },
  );
  const runtime = await createRuntime(config, {
    embedder: opts.embedder ?? null,
    log: process.env.SMRITI_TEST_LOG ? (m) => console.error(m) : () => {},
    supervise: true,
    ...catalogOf(opts),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.lead === false ? { lead: false } : {}),
  });
  const app = createHttpApp(runtime);
  const issueToken = async (
    workspace = opts.workspace ?? "default",
    actors: string[] = [],
    scopes: readonly Scope[] = opts.scopes ?? ALL_SCOPES,
  ) => {
    const issued = await runtime.auth.issue({ workspace, actors, scopes });
    return { token: issued.token, id: issued.record.id, workspaceId: issued.record.workspaceId };
  };
  const first = await issueToken(opts.workspace ?? "default", opts.actors ?? []);
  const headersOf = (defaults: Record<string, string>, overrides: Record<string, string | null>) =>
    Object.fromEntries(
      Object.entries({ authorization: `Bearer ${first.token}`, ...defaults, ...overrides }).filter(
        (e): e is [string, string] => e[1] !== null,
      ),
    );
  const post = (path: string, body: unknown, headers: Record<string, string | null> = {}) =>
    Promise.resolve(
      app.request(path, {
        method: "POST",
        headers: headersOf({ "content-type": "application/json" }, headers),
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    );
  const get = (path: string, query: Record<string, string> = {}, headers: Record<string, string | null> = {}) => {
    const search = new URLSearchParams(query).toString();
    return Promise.resolve(
      app.request(search ? `${path}?${search}` : path, { method: "GET", headers: headersOf({}, headers) }),
    );
  };
  return {
    app,
    runtime,
    config,
    dataDir,
    token: first.token,
    workspaceId: first.workspaceId,
    issueToken,
    post,
    get,
    async cleanup() {
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** SMRITI_TEST_STORE=postgres runs the service tests on PostgreSQL: one schema per data directory, kept across restarts. */
async function schemaOf(dataDir: string): Promise<string> {
  const file = join(dataDir, "test-database-url");
  if (existsSync(file)) return readFileSync(file, "utf8");
  const url = await freshSchemaUrl();
  writeFileSync(file, url);
  return url;
}

/** The catalog a test runtime gets: the option, else the env's file, else the permissive test catalog. */
function catalogOf(opts: TestServiceOptions): { agentCatalog?: unknown } {
  if (opts.agentCatalog === null || opts.env?.["SMRITI_AGENT_CATALOG"]) return {};
  return { agentCatalog: opts.agentCatalog ?? freeFormCatalog() };
}

/**
 * Lifts prana's compute budget: past it optional layers are skipped, which a loaded machine reaches on one run and not
 * another, so tests that compare two answers' trajectories step by step take it off.
 */
export function withoutComputeBudget({ runtime }: Pick<TestService, "runtime">): void {
  const config = runtime.cognitive.pipeline.current;
  runtime.cognitive.pipeline.configure({
    ...config,
    params: { ...config.params, prana: { ...config.params.prana, budgetMs: 600_000 } },
  });
}
