// Authentication keeps what it read of a token for a second (src/services/token-cache.ts): requests within it read no
// store, and a revocation made in this process is refused on the very next request. (Another process's revocation:
// test/cli/ingest.test.ts on SQLite, test/replicas/cli-postgres.test.ts on PostgreSQL, test/mcp/stdio.test.ts.)
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestService, type TestService } from "../helpers/runtime.ts";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.cleanup());

const whoami = (token: string) => svc.get("/v1/auth/whoami", {}, { authorization: `Bearer ${token}` });

describe("the token cache", () => {
  it("reads a token's record once for requests that follow each other", async () => {
    const { token } = await svc.issueToken();
    const reads = vi.spyOn(svc.runtime.store.workspaces, "findTokenByHash");
    try {
      for (let i = 0; i < 5; i++) expect((await whoami(token)).status).toBe(200);
      // One read, or two if this slow machine took over a second between two requests.
      expect(reads.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(reads.mock.calls.length).toBeLessThan(5);
    } finally {
      reads.mockRestore();
    }
  });

  it("refuses a token revoked in this process on the next request", async () => {
    const { token, id } = await svc.issueToken();
    expect((await whoami(token)).status).toBe(200);
    expect(await svc.runtime.auth.revoke(id)).toBe(true);
    const refused = await whoami(token);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("token_revoked");
  });

  it("serves a token created by another process at once (an unknown token is not remembered)", async () => {
    expect((await whoami("smr_not-yet-issued")).status).toBe(401);
    const { token } = await svc.issueToken();
    expect((await whoami(token)).status).toBe(200);
  });
});
