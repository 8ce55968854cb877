// Starting a background session that runs a command or calls a remote agent needs the execute scope besides write;
// a native session needs write only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "../../src/contract/scopes.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "100" } });
});
afterAll(() => svc.cleanup());

const bodies = {
  command: { task: "t", engine: "command", command: ["true"], approval_mode: "always" },
  a2a: { task: "t", engine: "a2a", agent_url: "http://127.0.0.1:9/", approval_mode: "always" },
};

async function start(scopes: readonly Scope[], body: object): Promise<Response> {
  const { token } = await svc.issueToken("default", [], scopes);
  return svc.post("/sessions", body, { authorization: `Bearer ${token}` });
}

describe("the execute scope", () => {
  for (const [engine, body] of Object.entries(bodies))
    it(`engine ${engine}: refused to read+write+admin, let through with execute`, async () => {
      const refused = await start(["read", "write", "admin"], body);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({
        error: { code: "insufficient_scope", details: { required: "execute", granted: ["read", "write", "admin"] } },
      });
      const passed = await start(["write", "execute"], body);
      const answer = (await passed.json()) as { error?: { code: string }; session?: { session_id: string } };
      // Whatever else the start decides (the operator's catalog may refuse it), it is not the scope.
      expect(answer.error?.code).not.toBe("insufficient_scope");
      if (answer.session) await svc.post(`/sessions/${answer.session.session_id}/cancel`, {});
    });

  it("a native session starts with write alone, and its run keeps its token's scopes", async () => {
    const res = await start(["write"], { task: "say hello", approval_mode: "always" });
    expect(res.status).toBe(200);
    const detail = (await res.json()) as { session: { session_id: string; resume_context: { scopes?: string[] } } };
    expect(detail.session.resume_context.scopes).toEqual(["write"]);
    await svc.post(`/sessions/${detail.session.session_id}/cancel`, {});
  });
});
