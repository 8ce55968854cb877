// The README's AG-UI table is the mapping in src/transports/agui/projection.ts, row for row.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sessionEvents } from "../../src/contract/events.ts";
import { mapping, mappingTable } from "../../src/transports/agui/projection.ts";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

describe("the README's AG-UI table", () => {
  it("maps every native event type", () => {
    expect(Object.keys(mapping).sort()).toEqual(Object.keys(sessionEvents).sort());
  });

  it("is the one the mapping generates", () => {
    const shown = /<!-- agui-table -->\n([\s\S]*?)\n<!-- \/agui-table -->/.exec(README)?.[1];
    expect(shown, "README.md: replace the table between the agui-table markers with mappingTable()'s").toBe(
      mappingTable(),
    );
  });
});
