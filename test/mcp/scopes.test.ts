// Token scopes over MCP (the SDK client on a real server), driven by the route table: every tool refuses a token
// without its row's scope with insufficient_scope, and lets one with only that scope through the check.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { Scope } from "../../src/contract/scopes.ts";
import { tableTools, toolError, useMcpService } from "../helpers/mcp-client.ts";
import { allBut, tableRows } from "../helpers/scoped-rows.ts";

const mcp = useMcpService();

async function clientWith(scopes: readonly Scope[]): Promise<Client> {
  const { token } = await mcp.svc.issueToken("default", [], scopes);
  return mcp.connect({ authorization: `Bearer ${token}` });
}

const toolRows = tableRows.flatMap((r) => (r.row.kind !== "stream" && r.row.tool ? [{ ...r, tool: r.row.tool }] : []));

describe("scopes over MCP, tool by tool of the route table", () => {
  it("walks every tool of the table", () => {
    expect(toolRows.map((r) => r.tool).sort()).toEqual(tableTools());
  });

  it("lists to each token only the tools its scopes allow", async () => {
    for (const scopes of [["read"], ["write"], ["read", "write"]] as Scope[][]) {
      const listed = (await (await clientWith(scopes)).listTools()).tools.map((t) => t.name).sort();
      expect(listed, scopes.join(",")).toEqual(
        toolRows
          .filter((r) => scopes.includes(r.scope as Scope))
          .map((r) => r.tool)
          .sort(),
      );
    }
  });

  for (const r of toolRows) {
    const scope = r.scope as Scope;
    it(`${r.tool} needs '${scope}'`, async () => {
      const refused = await (await clientWith(allBut(scope))).callTool({ name: r.tool, arguments: {} });
      expect(toolError(refused)).toMatchObject({
        code: "insufficient_scope",
        details: { required: scope, granted: allBut(scope) },
      });
      const passed = (await (await clientWith([scope])).callTool({ name: r.tool, arguments: {} })) as CallToolResult;
      if (passed.isError) expect(toolError(passed).code).not.toBe("insufficient_scope");
    });
  }
});
