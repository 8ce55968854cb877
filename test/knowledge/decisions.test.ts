// POST /v1/decisions/extract and service_decision_extract: ADR/MADR, Nygard and free-form decisions with literal citations; nothing is written.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { DecisionExtractResponse } from "../../src/contract/decisions.ts";
import { limits } from "../../src/contract/limits.ts";
import { operations } from "../../src/contract/operations.ts";
import { contentHash } from "../../src/domain/text/hash.ts";
import { callTool, toolError, useMcpService } from "../helpers/mcp-client.ts";
import type { TestService } from "../helpers/runtime.ts";

const NYGARD = `# 2. Implement as shell scripts

Date: 2016-02-12

## Status

Accepted

## Context

ADRs are plain text files stored in a subdirectory of the project.

## Decision

The tool is implemented as shell scripts that use standard Unix tools.

## Consequences

The tool won't support Windows.
`;

const MADR = `---
parent: Decisions
status: on hold
date: 2024-05-01
---
# Write Own MADR Tooling

## Context and Problem Statement

Developers seem to like tooling.

## Considered Options

* Write own MADR tooling
* Use adr-tools

## Decision Outcome

Chosen option: "Write own MADR tooling", because it fits.

### Consequences

* Good, because we control it

## Pros and Cons of the Options

\`\`\`markdown
# Not a title
## Decision
Not a decision.
\`\`\`
`;

const NOTES = `# Weekly sync

- Budget review went fine.
- After a long debate we decided to move the launch to March 3. Marketing agreed.
- Decision: adopt Postgres 16 on 2024-06-01

\`\`\`
decision: inside a fence, ignored
\`\`\`
`;

let svc: TestService;
const service = useMcpService();

beforeAll(async () => {
  svc = service.svc;
});

async function extract(body: unknown): Promise<DecisionExtractResponse> {
  const res = await svc.post("/v1/decisions/extract", body);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as DecisionExtractResponse;
}

function expectLiteralCitations(content: string, r: DecisionExtractResponse): void {
  for (const d of r.decisions)
    for (const c of d.citations) {
      expect(content).toContain(c.text_span);
      expect(c.chunk_hash).toBe(contentHash(c.text_span));
      expect(c.score).toBe(1);
      expect(c.source_path).toBe(r.source_path);
    }
}

describe("POST /v1/decisions/extract", () => {
  it("reads what an ADR's Status says it supersedes or was superseded by (adr-tools' links, or plain words)", async () => {
    const replaced = NYGARD.replace("\nAccepted\n", "\nSuperseded by [5. Use Go](0005-use-go.md)\n");
    const replacing = NYGARD.replace("\nAccepted\n", "\nAccepted\n\nSupersedes [1. Use Perl](0001-use-perl.md)\n");
    const pick = async (content: string) => {
      const d = (await extract({ content })).decisions[0]!;
      return [d.status, d.supersedes, d.superseded_by];
    };
    expect(await pick(replaced)).toEqual(["superseded by [5. use go](0005-use-go.md)", null, "0005-use-go.md"]);
    expect(await pick(replacing)).toEqual(["accepted", "0001-use-perl.md", null]);
    expect(await pick(NYGARD)).toEqual(["accepted", null, null]);
    expect(await pick("# Use Go\n\n- Status: Superseded by ADR-0007\n\n## Decision\n\nWe use Go.\n")).toEqual([
      "superseded by adr-0007",
      null,
      "ADR-0007",
    ]);
  });

  it("reads a Nygard / adr-tools ADR field by field, with citations anchored at the heading path", async () => {
    const r = await extract({ content: NYGARD, source_path: "doc/adr/0002.md" });
    expect(r.source_path).toBe("doc/adr/0002.md");
    expect(r.decisions).toHaveLength(1);
    const d = r.decisions[0]!;
    expect(d).toMatchObject({
      style: "nygard",
      title: "Implement as shell scripts",
      status: "accepted",
      date: "2016-02-12",
      context: "ADRs are plain text files stored in a subdirectory of the project.",
      decision: "The tool is implemented as shell scripts that use standard Unix tools.",
      consequences: "The tool won't support Windows.",
      chosen_option: null,
      options: [],
    });
    const byField = Object.fromEntries(d.citations.map((c) => [c.field, c]));
    expect(byField["decision"]!.anchor).toBe("2. Implement as shell scripts > Decision");
    expect(byField["status"]!.text_span).toBe("Accepted");
    expectLiteralCitations(NYGARD, r);
  });

  it("reads MADR: front matter status and date, chosen option, considered options; ignores headings inside fences", async () => {
    const r = await extract({ content: MADR, source_path: "adr/0003.md" });
    expect(r.decisions).toHaveLength(1);
    expect(r.decisions[0]).toMatchObject({
      style: "madr",
      title: "Write Own MADR Tooling",
      status: "on hold",
      date: "2024-05-01",
      context: "Developers seem to like tooling.",
      chosen_option: "Write own MADR tooling",
      options: ["Write own MADR tooling", "Use adr-tools"],
      consequences: "* Good, because we control it",
    });
    expect(r.decisions[0]!.decision).toContain('Chosen option: "Write own MADR tooling"');
    expectLiteralCitations(MADR, r);
  });

  it("finds free-form 'we decided' and 'Decision:' lines outside code fences", async () => {
    const r = await extract({ content: NOTES });
    expect(r.source_path).toBe(`text/${contentHash(NOTES).slice(7, 19)}`);
    expect(r.decisions.map((d) => [d.style, d.decision, d.date])).toEqual([
      ["freeform", "After a long debate we decided to move the launch to March 3.", null],
      ["freeform", "adopt Postgres 16 on 2024-06-01", "2024-06-01"],
    ]);
    expect(r.decisions[0]!.citations[0]!.anchor).toBe("Weekly sync");
    expectLiteralCitations(NOTES, r);
  });

  it("returns an empty list for markdown without decisions, and writes nothing", async () => {
    const events = (await svc.runtime.store.audit.listEvents(svc.workspaceId, { limit: 1000 })).length;
    expect((await extract({ content: "# Notes\n\nNothing was settled today.\n" })).decisions).toEqual([]);
    expect((await extract({ content: "plain text, no headings" })).decisions).toEqual([]);
    expect(await svc.runtime.store.documents.listDocuments(svc.workspaceId)).toEqual([]);
    expect(await svc.runtime.store.audit.listEvents(svc.workspaceId, { limit: 1000 })).toHaveLength(events);
  });

  it("400 for empty, blank or oversize content and bad source paths", async () => {
    for (const body of [
      { content: "" },
      { content: " \n\t" },
      {},
      { content: NOTES, source_path: "" },
      { content: "x".repeat(limits.maxContentChars + 1) },
    ]) {
      const res = await svc.post("/v1/decisions/extract", body);
      expect(res.status).toBe(400);
    }
  });
});

describe("service_decision_extract over MCP", () => {
  it("is listed with the table's description and returns the same result as HTTP", async () => {
    const client = await service.connect();
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "service_decision_extract");
    expect(tool?.description).toBe(operations.decision_extract.description);
    const viaMcp = await callTool<DecisionExtractResponse>(client, "service_decision_extract", {
      content: NYGARD,
      source_path: "doc/adr/0002.md",
    });
    const viaHttp = await extract({ content: NYGARD, source_path: "doc/adr/0002.md" });
    const strip = (r: DecisionExtractResponse) =>
      r.decisions.map((d) => ({ ...d, citations: d.citations.map(({ retrieved_at: _, ...c }) => c) }));
    expect(strip(viaMcp)).toEqual(strip(viaHttp));
    expect(
      toolError(await client.callTool({ name: "service_decision_extract", arguments: { content: "" } })).code,
    ).toBe("invalid_request");
  });

  it("reads a real adr-tools file from the eval data when present", async () => {
    const file = new URL("../../../shared/eval/adr/adr-tools/0001-record-architecture-decisions.md", import.meta.url);
    let content: string;
    try {
      content = readFileSync(file, "utf8");
    } catch {
      return;
    }
    const [d] = (await extract({ content })).decisions;
    expect(d).toMatchObject({ title: "Record architecture decisions", status: "accepted" });
  });
});
