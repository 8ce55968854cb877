// GET /v1/open_loops and service_open_loops: unresolved TODO / OPENLOOP markers across the stored documents, cited into their chunks.
import { beforeAll, describe, expect, it } from "vitest";
import type { OpenLoopsResponse } from "../../src/contract/open-loops.ts";
import { operations } from "../../src/contract/operations.ts";
import { findOpenLoops } from "../../src/domain/knowledge/open-loops.ts";
import { callTool, toolError, useMcpService } from "../helpers/mcp-client.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

const PLAN = `# Launch plan

- [ ] TODO book the venue
- [x] TODO send invites
- TODO confirm catering DONE
- OPENLOOP who owns the press release?

## Later

Some prose about a todo list that is not a marker.
TODO: write the retro
`;

const CODE = `export function f() {
  // TODO handle errors
  return 1;
}
`;

let svc: TestService;
const service = useMcpService();

beforeAll(async () => {
  svc = service.svc;
  for (const [source_path, content] of [
    ["notes/plan.md", PLAN],
    ["src/f.ts", CODE],
    ["notes/clean.md", "# Clean\n\nNothing open here.\n"],
  ])
    expect((await svc.post("/v1/memory/ingest", { source_path, content })).status).toBe(200);
});

async function loops(query: Record<string, string> = {}): Promise<OpenLoopsResponse> {
  const res = await svc.get("/v1/open_loops", query);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as OpenLoopsResponse;
}

describe("findOpenLoops", () => {
  it("keeps unchecked and plain markers, drops checked boxes and DONE, is case-sensitive", () => {
    expect(findOpenLoops(PLAN).map((l) => [l.line, l.marker, PLAN.slice(l.start, l.end)])).toEqual([
      [3, "TODO", "- [ ] TODO book the venue"],
      [6, "OPENLOOP", "- OPENLOOP who owns the press release?"],
      [11, "TODO", "TODO: write the retro"],
    ]);
    expect(findOpenLoops("- [X] TODO done\r\n* [ ] OPENLOOP open\r\n")).toMatchObject([
      { line: 2, marker: "OPENLOOP" },
    ]);
    expect(findOpenLoops("")).toEqual([]);
  });
});

describe("GET /v1/open_loops", () => {
  it("lists unresolved markers by source and line, each citing its stored chunk", async () => {
    const r = await loops();
    expect(r.truncated).toBe(false);
    expect(r.loops.map((l) => [l.source_path, l.line, l.marker, l.text])).toEqual([
      ["notes/plan.md", 3, "TODO", "- [ ] TODO book the venue"],
      ["notes/plan.md", 6, "OPENLOOP", "- OPENLOOP who owns the press release?"],
      ["notes/plan.md", 11, "TODO", "TODO: write the retro"],
      ["src/f.ts", 2, "TODO", "// TODO handle errors"],
    ]);
    for (const l of r.loops) {
      expect(l.citation.text_span).toBe(l.text);
      expect(l.citation.source_path).toBe(l.source_path);
      expect(l.citation.score).toBe(1);
      const stored = await svc.runtime.store.documents.chunksByHash(svc.workspaceId, l.citation.chunk_hash);
      expect(stored.some((c) => c.sourcePath === l.source_path && c.text.includes(l.text))).toBe(true);
    }
    expect(r.loops[2]!.citation.anchor).toBe("Launch plan > Later");
  });

  it("filters by source_path_prefix and caps with limit", async () => {
    expect((await loops({ source_path_prefix: "src/" })).loops.map((l) => l.source_path)).toEqual(["src/f.ts"]);
    expect((await loops({ source_path_prefix: "nowhere/" })).loops).toEqual([]);
    const capped = await loops({ limit: "2" });
    expect(capped.loops).toHaveLength(2);
    expect(capped.truncated).toBe(true);
    expect(capped.next_cursor).not.toBeNull();
  });

  it("pages with cursors through every loop exactly once, and a loop added behind the cursor does not shift later pages", async () => {
    const all = (await loops({ limit: "1000" })).loops;
    expect(all.length).toBeGreaterThan(3);
    const paged: typeof all = [];
    let cursor: string | undefined;
    let added = false;
    do {
      const page = await loops({ limit: "2", ...(cursor ? { cursor } : {}) });
      paged.push(...page.loops);
      if (!added) {
        // Sorts before every page still to come: a cursor that counted positions would now repeat a loop.
        expect(
          (await svc.post("/v1/memory/ingest", { source_path: "a-first.md", content: "TODO added while paging\n" }))
            .status,
        ).toBe(200);
        added = true;
      }
      expect(page.truncated).toBe(page.next_cursor !== null);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(paged.map((l) => [l.source_path, l.line])).toEqual(all.map((l) => [l.source_path, l.line]));
    expect((await svc.post("/v1/memory/forget", { source_path: "a-first.md" })).status).toBe(200);
  });

  it("follows re-ingest (resolved items vanish) and forget (the source's loops are gone)", async () => {
    const resolved = PLAN.replace("- [ ] TODO book the venue", "- [x] TODO book the venue");
    expect((await svc.post("/v1/memory/ingest", { source_path: "notes/plan.md", content: resolved })).status).toBe(200);
    expect((await loops({ source_path_prefix: "notes/" })).loops.map((l) => l.line)).toEqual([6, 11]);
    expect((await svc.post("/v1/memory/forget", { source_path: "notes/plan.md" })).status).toBe(200);
    expect((await loops()).loops.map((l) => l.source_path)).toEqual(["src/f.ts"]);
    expect((await svc.post("/v1/memory/ingest", { source_path: "notes/plan.md", content: PLAN })).status).toBe(200);
  });

  it("400 for a bad limit or an unknown parameter", async () => {
    for (const query of [{ limit: "0" }, { limit: "1001" }, { limit: "2.5" }, { limit: "ten" }, { colour: "red" }]) {
      const res = await svc.get("/v1/open_loops", query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    }
    const bad = await svc.get("/v1/open_loops", { cursor: "x" });
    expect([bad.status, ((await bad.json()) as { error: { code: string } }).error.code]).toEqual([
      400,
      "invalid_cursor",
    ]);
  });

  it("only sees the caller's workspace", async () => {
    const multi = await startTestService({ multiTenant: true });
    try {
      expect((await multi.post("/v1/memory/ingest", { source_path: "x.md", content: "TODO mine\n" })).status).toBe(200);
      const theirs = await multi.issueToken("elsewhere");
      const res = await multi.get("/v1/open_loops", {}, { authorization: `Bearer ${theirs.token}` });
      expect(res.status).toBe(200);
      expect(((await res.json()) as OpenLoopsResponse).loops).toEqual([]);
      expect(
        ((await (await multi.get("/v1/open_loops")).json()) as OpenLoopsResponse).loops.map((l) => l.text),
      ).toEqual(["TODO mine"]);
    } finally {
      await multi.cleanup();
    }
  });
});

describe("service_open_loops over MCP", () => {
  it("is listed with the table's description and matches HTTP", async () => {
    const client = await service.connect();
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "service_open_loops")?.description).toBe(operations.open_loops.description);
    const viaMcp = await callTool<OpenLoopsResponse>(client, "service_open_loops", {
      source_path_prefix: "notes/",
      limit: 10,
    });
    const viaHttp = await loops({ source_path_prefix: "notes/", limit: "10" });
    expect(viaMcp.loops.map((l) => [l.source_path, l.line, l.text, l.citation.chunk_hash])).toEqual(
      viaHttp.loops.map((l) => [l.source_path, l.line, l.text, l.citation.chunk_hash]),
    );
    expect(toolError(await client.callTool({ name: "service_open_loops", arguments: { limit: 0 } })).code).toBe(
      "invalid_request",
    );
  });
});
