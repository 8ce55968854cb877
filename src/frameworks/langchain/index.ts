// smriti/langchain: a LangChain.js retriever whose documents carry their citations, and the memory operations as
// LangChain tools, over the typed client (`@langchain/core` is the user's: a peer dependency).
import type { CallbackManagerForRetrieverRun } from "@langchain/core/callbacks/manager";
import { Document } from "@langchain/core/documents";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import type { RouteInput } from "../../contract/routes.ts";
import { citationMetadata, clientOf, memoryTools, toolAnswer, type SmritiSource } from "../memory-operations.ts";

export { MEMORY_OPERATIONS, type SmritiSource } from "../memory-operations.ts";

export interface SmritiRetrieverInput extends BaseRetrieverInput {
  /** A client (`createClient`, `createLocalClient`), or `{ baseUrl, token }` to make one. */
  smriti: SmritiSource;
  /** Recall's options besides the query: k (default 10), mode, filters. */
  recall?: Omit<RouteInput<"recall">, "query">;
}

/** Recall as a retriever: each hit a Document of its text_span, with the citation as metadata. */
export class SmritiRetriever extends BaseRetriever {
  lc_namespace = ["smriti", "retrievers"];
  private readonly client: ReturnType<typeof clientOf>;
  private readonly options: Omit<RouteInput<"recall">, "query">;

  constructor(fields: SmritiRetrieverInput) {
    super(fields);
    this.client = clientOf(fields.smriti);
    this.options = fields.recall ?? {};
  }

  override async _getRelevantDocuments(query: string, _runManager?: CallbackManagerForRetrieverRun) {
    const { hits } = await this.client.recall({ ...this.options, query });
    return hits.map((hit) => new Document({ pageContent: hit.text_span, metadata: citationMetadata(hit) }));
  }
}

/** The memory operations as LangChain tools (service_recall, service_pack, ...); each returns the route's JSON answer (or its error envelope). */
export function smritiTools(smriti: SmritiSource): StructuredToolInterface[] {
  return memoryTools(smriti).map((op) =>
    tool(async (input: unknown) => JSON.stringify(await toolAnswer(op, input as never)), {
      name: op.name,
      description: op.description,
      schema: op.input,
    }),
  );
}
