// smriti/langchain inside real LangChain.js runnables, the model ChatOpenAI against the OpenAI-wire double: the
// retriever in a retrieval chain (in-process, the local client) and the tools in a tool-calling loop (a remote service).
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import { RunnablePassthrough, RunnableSequence } from "@langchain/core/runnables";
import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SmritiRetriever, smritiTools } from "../../src/frameworks/langchain/index.ts";
import { callTools, say } from "../helpers/chat-server.ts";
import { HASH, startFixture, TOOL_NAMES, type Fixture } from "./fixture.ts";

describe("smriti/langchain", () => {
  let f: Fixture;
  beforeAll(async () => (f = await startFixture()));
  afterAll(() => f.close());
  beforeEach(() => void f.wire.requests.splice(0));

  const model = () =>
    new ChatOpenAI({ model: "wire-model", apiKey: "test", maxRetries: 0, configuration: { baseURL: f.wire.base } });

  it("retrieves documents with their citations, in-process, inside a retrieval chain the model answers from", async () => {
    const retriever = new SmritiRetriever({ smriti: f.local, recall: { k: 3 } });
    const docs = await retriever.invoke("who picked postgres");
    expect(docs[0]!.pageContent).toContain("Alice picked PostgreSQL");
    expect(docs[0]!.metadata).toMatchObject({
      chunk_hash: expect.stringMatching(HASH),
      source_path: "storage.md",
      anchor: "Storage",
      text_span: docs[0]!.pageContent,
      score: expect.any(Number),
    });

    f.wire.script(say("Alice picked it."));
    const prompt = ChatPromptTemplate.fromTemplate("Context:\n{context}\n\nQuestion: {question}");
    const chain = RunnableSequence.from([
      {
        context: retriever.pipe((ds) =>
          ds.map((d) => `[${String(d.metadata["chunk_hash"])}] ${d.pageContent}`).join("\n"),
        ),
        question: new RunnablePassthrough(),
      },
      prompt,
      model(),
      new StringOutputParser(),
    ]);
    expect(await chain.invoke("who picked postgres")).toBe("Alice picked it.");
    const sent = f.wire.requests[0]!.messages.map((m) => m.content).join("\n");
    expect(sent).toContain(`[${String(docs[0]!.metadata["chunk_hash"])}] ${docs[0]!.pageContent}`);
  });

  it("offers the memory operations as tools a model calls in a tool loop against a remote service", async () => {
    const tools = smritiTools({ baseUrl: f.server.url, token: f.svc.token });
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    f.wire.script(
      callTools({ name: "service_recall", args: '{"query":"who picked postgres","k":3}' }),
      say("Alice picked PostgreSQL (storage.md)."),
    );
    const bound = model().bindTools(tools);
    const messages: BaseMessage[] = [new HumanMessage("Who picked PostgreSQL?")];
    for (let step = 0; step < 4; step++) {
      const reply = (await bound.invoke(messages)) as AIMessage;
      messages.push(reply);
      if (!reply.tool_calls?.length) break;
      for (const call of reply.tool_calls) messages.push(await tools.find((t) => t.name === call.name)!.invoke(call));
    }
    expect(messages.at(-1)!.content).toBe("Alice picked PostgreSQL (storage.md).");
    // The model was offered the contract's schema and got the recall's citations back under its call id.
    const offered = f.wire.requests[0]!.tools as unknown as {
      function: { name: string; parameters: { properties: object } };
    }[];
    expect(Object.keys(offered[0]!.function.parameters.properties)).toEqual(
      expect.arrayContaining(["query", "k", "mode"]),
    );
    const toolMessage = f.wire.requests[1]!.messages.find((m) => m.role === "tool")!;
    expect(toolMessage.tool_call_id).toBe("wire_0");
    const result = JSON.parse(toolMessage.content) as { hits: { chunk_hash: string; source_path: string }[] };
    expect(result.hits[0]).toMatchObject({ chunk_hash: expect.stringMatching(HASH), source_path: "storage.md" });
  });

  it("remembers, answers with citations and forgets through the tools, in-process", async () => {
    const tools = Object.fromEntries(smritiTools(f.local).map((t) => [t.name, t]));
    await tools["service_ingest"]!.invoke({
      source_path: "cats.md",
      content: "# Cats\n\nCats sleep sixteen hours a day.\n\nTODO: weigh the cats.\n",
    });
    const recalled = JSON.parse((await tools["service_recall"]!.invoke({ query: "cats sleep" })) as string) as {
      hits: { source_path: string }[];
    };
    expect(recalled.hits[0]).toMatchObject({ source_path: "cats.md" });
    const open = JSON.parse((await tools["service_open_loops"]!.invoke({})) as string) as { loops: { text: string }[] };
    expect(open.loops.map((l) => l.text)).toEqual([expect.stringContaining("weigh the cats")]);
    const answer = JSON.parse(
      (await tools["service_grounded_answer"]!.invoke({ question: "Who picked PostgreSQL?" })) as string,
    ) as { citations: { source_path: string; chunk_hash: string }[] };
    expect(answer.citations[0]).toMatchObject({ source_path: "storage.md", chunk_hash: expect.stringMatching(HASH) });
    // A refusal is the route's error envelope, which a model reads like any result.
    const unknown = JSON.parse(
      (await tools["service_grounded_answer"]!.invoke({
        question: "Who designed the Varenholm lighthouse?",
      })) as string,
    ) as { error: { code: string } };
    expect(unknown.error.code).toBe("insufficient_evidence");
    const forgot = JSON.parse((await tools["service_forget"]!.invoke({ source_path: "cats.md" })) as string) as object;
    expect(forgot).toMatchObject({ removed_sources: ["cats.md"] });
    const loops = JSON.parse((await tools["service_open_loops"]!.invoke({})) as string) as { loops: unknown[] };
    expect(loops.loops).toEqual([]); // the forgotten source's TODO went with it
  });
});
