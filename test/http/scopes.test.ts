// Token scopes over HTTP, driven by the route table: every row refuses a token without its scope (403
// insufficient_scope, before its input is read) and lets one with only that scope through the check.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_SCOPES, type Scope } from "../../src/contract/scopes.ts";
import { routes } from "../../src/contract/routes.ts";
import { openApiDocument } from "../../src/transports/http/openapi.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { allBut, placeholderPath, tableRows, type ScopedRow } from "../helpers/scoped-rows.ts";

let svc: TestService;
const tokens = new Map<string, string>();

/** A token with exactly these scopes (issued once per set). */
async function tokenWith(scopes: readonly Scope[]): Promise<string> {
  const key = [...scopes].sort().join(",");
  if (!tokens.has(key)) tokens.set(key, (await svc.issueToken("default", [], scopes)).token);
  return tokens.get(key)!;
}

async function request(r: ScopedRow, token: string): Promise<Response> {
  const init: RequestInit = {
    method: r.row.method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
  };
  if (r.row.method === "POST") init.body = "{}";
  return svc.app.request(placeholderPath(r.row), init);
}

const codeOf = async (res: Response) =>
  (
    (await res
      .clone()
      .json()
      .catch(() => null)) as { error?: { code: string } } | null
  )?.error?.code;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.cleanup());

describe("scopes over HTTP, row by row of the route table", () => {
  it("every row of the table names its scope, and the OpenAPI document shows it", () => {
    const doc = openApiDocument("test") as {
      paths: Record<string, Record<string, { "x-smriti-scope"?: string; security: { bearer?: string[] }[] }>>;
    };
    for (const [id, row] of Object.entries(routes)) {
      expect(["read", "write", "execute", "admin", "none"], id).toContain(row.scope);
      const entry = doc.paths[row.path]![row.method.toLowerCase()]!;
      expect(entry["x-smriti-scope"], id).toBe(row.scope);
      if (row.scope !== "none") expect(entry.security, id).toEqual([{ bearer: [row.scope] }]);
    }
  });

  for (const r of tableRows.filter((r) => r.scope !== "none")) {
    const scope = r.scope as Scope;
    it(`${r.id} (${r.row.method} ${r.row.path}) needs '${scope}'`, async () => {
      const refused = await request(r, await tokenWith(allBut(scope)));
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({
        error: { code: "insufficient_scope", details: { required: scope, granted: allBut(scope) } },
      });
      const passed = await request(r, await tokenWith([scope]));
      await passed.body?.cancel();
      expect(
        passed.status === 403 && (await codeOf(passed)) === "insufficient_scope",
        `${r.id}: ${passed.status}`,
      ).toBe(false);
    });
  }

  for (const r of tableRows.filter((r) => r.scope === "none"))
    it(`${r.id} takes any valid token, whatever its scopes`, async () => {
      for (const scope of ALL_SCOPES) expect((await request(r, await tokenWith([scope]))).status).toBe(200);
    });

  it("whoami tells a token its workspace, id, actors and scopes", async () => {
    const issued = await svc.issueToken("default", ["agent-1"], ["read", "admin"]);
    const res = await svc.get(
      "/v1/auth/whoami",
      {},
      { authorization: `Bearer ${issued.token}`, "x-svc-actor-id": "agent-1" },
    );
    expect(await res.json()).toEqual({
      workspace_id: svc.workspaceId,
      workspace: "default",
      token_id: issued.id,
      actor_id: "agent-1",
      actors: ["agent-1"],
      scopes: ["read", "admin"],
    });
  });

  it("a token issued without scopes may read and write, nothing more", async () => {
    const issued = await svc.runtime.auth.issue({ workspace: "default" });
    const res = await svc.get("/v1/auth/whoami", {}, { authorization: `Bearer ${issued.token}` });
    expect(((await res.json()) as { scopes: string[] }).scopes).toEqual(["read", "write"]);
  });
});
