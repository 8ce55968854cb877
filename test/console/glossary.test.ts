// The console's glossary names every layer, knowledge stage, session tool and health budget there is (issue 41), and
// nothing that is not: checked against the contract's lists and the tools a session offers.
import { describe, expect, it } from "vitest";
import { RecordSummary } from "../../src/contract/assimilation.ts";
import { LAYER_IDS } from "../../src/contract/cognitive-layers.ts";
import { HealthBudgets } from "../../src/contract/health.ts";
import { fileTools } from "../../src/sessions/tools/file-tools.ts";
import { memoryTools } from "../../src/sessions/tools/memory-tools.ts";
import { BUDGETS, LAYERS, STAGES, TOOLS } from "../../web/src/ui/glossary.ts";

const sorted = (names: Iterable<string>) => [...names].sort();

describe("the glossary", () => {
  it("has one line for each layer, stage, tool and budget, and none for a name that does not exist", () => {
    expect(sorted(Object.keys(LAYERS))).toEqual(sorted(LAYER_IDS));
    expect(sorted(Object.keys(STAGES))).toEqual(sorted(RecordSummary.shape.stage.options));
    expect(sorted(Object.keys(BUDGETS))).toEqual(sorted(Object.keys(HealthBudgets.shape)));
    // The handlers are never called: only the tools' names are read.
    const tools = [...memoryTools({} as never), ...fileTools].map((t) => t.name);
    expect(sorted(Object.keys(TOOLS))).toEqual(sorted([...tools, "delegate"]));
  });

  it("keeps each description to one line", () => {
    for (const line of Object.values({ ...LAYERS, ...STAGES, ...TOOLS, ...BUDGETS }))
      expect(line).toMatch(/^[^\n]{10,140}$/);
  });
});
