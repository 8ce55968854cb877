// The memory operations the framework adapters offer as tools (issue 46): the route table's rows, with their MCP tool
// names, descriptions and input schemas, called through the typed client (remote, or the in-process local client).
import { createClient, SmritiError, type ClientOptions, type SmritiClient } from "../client/index.ts";
import type { Citation } from "../contract/citation.ts";
import { routes, type RouteInput, type RouteOutput } from "../contract/routes.ts";

/** recall, pack, grounded answer, ingest (remember), forget, open loops: what an agent needs of its memory. */
export const MEMORY_OPERATIONS = ["recall", "pack", "grounded_answer", "ingest", "forget", "open_loops"] as const;
export type MemoryOperation = (typeof MEMORY_OPERATIONS)[number];

/** A client, or where to reach the service (`baseUrl` + `token`) to make one. */
export type SmritiSource = Pick<SmritiClient, "call" | "recall"> | ClientOptions;

export const clientOf = (source: SmritiSource): Pick<SmritiClient, "call" | "recall"> =>
  "call" in source ? source : createClient(source);

export interface MemoryTool<K extends MemoryOperation = MemoryOperation> {
  id: K;
  /** The MCP tool name (service_recall, ...): the same tool under the same name everywhere. */
  name: string;
  description: string;
  /** The route's own zod input schema (src/contract), not a copy. */
  input: (typeof routes)[K]["input"];
  run(input: RouteInput<K>): Promise<RouteOutput<K>>;
}

/** One tool per memory operation, bound to the client. */
export function memoryTools(source: SmritiSource): MemoryTool[] {
  const client = clientOf(source);
  return MEMORY_OPERATIONS.map(<K extends MemoryOperation>(id: K): MemoryTool<K> => {
    const row = routes[id];
    return {
      id,
      name: row.tool ?? id,
      description: row.description ?? row.summary,
      input: row.input,
      run: (input) => client.call(id, input),
    };
  }) as MemoryTool[];
}

/**
 * A tool's answer for a model: the route's JSON, or for a refusal (a 4xx: insufficient_evidence, not_found, bad
 * arguments) its error envelope, which the model reads like any result; other failures throw.
 */
export async function toolAnswer<K extends MemoryOperation>(
  tool: MemoryTool<K>,
  input: RouteInput<K>,
): Promise<unknown> {
  try {
    return await tool.run(input);
  } catch (err) {
    if (err instanceof SmritiError && err.status < 500)
      return { error: { code: err.code, message: err.message, details: err.details } };
    throw err;
  }
}

/** A citation as document metadata: the fields a reader needs to check it (occurred_at when the service sends it). */
export function citationMetadata(hit: Citation) {
  return {
    chunk_hash: hit.chunk_hash,
    source_path: hit.source_path,
    anchor: hit.anchor,
    text_span: hit.text_span,
    score: hit.score,
    ...(hit.occurred_at ? { occurred_at: hit.occurred_at } : {}),
  };
}
