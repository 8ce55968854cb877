// A session's tool calls retrieve in slices: a request whose bytes arrive meanwhile is read before the rows are. A
// request's own recall, pack or answer reads its rows straight after the search. SQLite only: on PostgreSQL every row
// read is a round trip, so the loop reads sockets during any call and the control below would not hold.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { CallContext } from "../../src/ports/call-context.ts";
import type { ServiceHandlers } from "../../src/ports/route-handlers.ts";
import { memoryTools } from "../../src/sessions/tools/memory-tools.ts";
import { ingestCorpus } from "../grounded/support.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { orderAgainstRead } from "../helpers/socket-pair.ts";
import { ALL_SCOPES } from "../../src/contract/scopes.ts";

describe("calls that yield to requests", () => {
  let svc: TestService;
  let call: CallContext;
  let mark: (what: string) => void = () => {};
  beforeAll(async () => {
    svc = await startTestService();
    await ingestCorpus(svc);
    call = {
      workspaceId: svc.workspaceId,
      workspaceName: "default",
      tokenId: "tok_test",
      actorId: null,
      scopes: ALL_SCOPES,
    };
    await svc.runtime.memory.recall(svc.workspaceId, { query: "lighthouse" }); // the index is loaded before the timings
    const getChunks = svc.runtime.store.documents.getChunks.bind(svc.runtime.store.documents);
    vi.spyOn(svc.runtime.store.documents, "getChunks").mockImplementation(
      (...args) => (mark("rows"), getChunks(...args)),
    );
  });
  afterAll(() => svc.cleanup());

  /** Where the read of the second socket fell: before the call read its rows, or after. */
  const readBeforeRows = async (work: () => Promise<unknown>) => {
    const order = await orderAgainstRead((m) => ((mark = m), work()));
    mark = () => {};
    expect(order).toContain("rows");
    return order.indexOf("second") < order.indexOf("rows");
  };

  const calls = {
    recall: (c: CallContext) =>
      svc.runtime.memory.recall(c.workspaceId, { query: "Who designed the lighthouse?" }, { call: c }),
    pack: (c: CallContext) =>
      svc.runtime.memory.pack(c.workspaceId, { intent: "lighthouse keepers", budget_tokens: 200 }, { call: c }),
    "grounded answer": (c: CallContext) =>
      svc.runtime.grounded.answer(c, { question: "Who designed the Varenholm lighthouse?" }),
  };

  for (const [name, run] of Object.entries(calls)) {
    it(`${name}: with yieldsToRequests a read that became ready goes before the rows; without, after them`, async () => {
      expect(await readBeforeRows(() => run({ ...call, yieldsToRequests: true }))).toBe(true);
      expect(await readBeforeRows(() => run(call))).toBe(false);
    });
  }

  it("a session's memory tool sets it: the tool yields where the same handler called for a request does not", async () => {
    const handlers = svc.runtime.handlers as unknown as ServiceHandlers;
    const recall = memoryTools(handlers).find((t) => t.name === "service_recall")!;
    const input = { query: "Who designed the lighthouse?", k: 5, mode: "hybrid" as const, explain: false };
    const ctx = { call, sessionId: "ses_test", taskDir: "/nonexistent" };
    expect(await readBeforeRows(() => recall.run(ctx, input, new AbortController().signal))).toBe(true);
    expect(await readBeforeRows(() => handlers.recall(call, input))).toBe(false);
  });
});
