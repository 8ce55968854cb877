// A revoked token stops working on every serving process within TOKEN_RECHECK_MS of the revocation, though each keeps
// what it read of tokens (src/services/token-cache.ts): two runtimes on one store stand for two workers or replicas,
// each with its own connection and cache. No polling: past the bound the very next request must be refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN_RECHECK_MS } from "../../src/services/token-cache.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

let first: TestService;
let second: TestService;
beforeAll(async () => {
  first = await startTestService();
  second = await startTestService({ dataDir: first.dataDir, lead: false });
});
afterAll(async () => {
  await second.runtime.close();
  await first.cleanup();
});

const whoami = (svc: TestService, token: string) =>
  svc.get("/v1/auth/whoami", {}, { authorization: `Bearer ${token}` });
const code = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;

describe("token revocation across serving processes", () => {
  it("is refused at once where it was revoked and within the bound on the other, while other tokens keep working", async () => {
    const revoked = await first.issueToken();
    const kept = await first.issueToken();
    for (const svc of [first, second])
      for (const { token } of [revoked, kept]) expect((await whoami(svc, token)).status).toBe(200); // now cached on both

    expect(await second.runtime.auth.revoke(revoked.id)).toBe(true);
    const revokedAt = performance.now();
    expect(await code(await whoami(second, revoked.token))).toBe("token_revoked");

    await new Promise((r) => setTimeout(r, Math.max(0, revokedAt + TOKEN_RECHECK_MS - performance.now()) + 20));
    expect(await code(await whoami(first, revoked.token))).toBe("token_revoked");
    for (const svc of [first, second]) expect((await whoami(svc, kept.token)).status).toBe(200);
  });

  it("keeps each token's own reach: a cached read-only token cannot write beside a cached writer", async () => {
    const reader = await first.issueToken("default", [], ["read"]);
    const writer = await first.issueToken("default", [], ["read", "write"]);
    const ingest = (token: string) =>
      first.post(
        "/v1/memory/ingest",
        { source_path: "notes/reach.md", content: "Reach test." },
        { authorization: `Bearer ${token}` },
      );
    expect((await ingest(writer.token)).status).toBe(200);
    expect((await whoami(first, reader.token)).status).toBe(200);
    const refused = await ingest(reader.token);
    expect(refused.status).toBe(403);
    expect(await code(refused)).toBe("insufficient_scope");
  });
});
