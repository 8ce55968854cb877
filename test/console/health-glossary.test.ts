// Health bars read one way (issue 41): a budget's bar fills as it is used up, so a healthy session's min_score floor
// (score 1, floor 0.20) draws empty, not 20% full; and the names the console shows carry a one-line description.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { drain, startRig, type ConsoleRig } from "./support.ts";

let rig: ConsoleRig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.close());
afterEach(() => rig.assertNoErrors());

describe("health bars", () => {
  it("a healthy session's budgets draw as used: min_score empty at score 1, each budget named with what it measures", async () => {
    const sid = (await rig.c.client.startSession({ task: "Who picked PostgreSQL?", approval_mode: "never" })).session
      .session_id;
    const page = await rig.page(`#/sessions/background/${sid}`);
    const health = page.getByTestId("health");
    await expect.poll(() => health.getAttribute("data-status"), { timeout: 15_000 }).toBe("completed");
    const floor = health.locator("li[data-budget=min_score]");
    expect(await floor.textContent()).toContain("score 1, floor 0.20 · 0% used");
    expect(await floor.getByRole("meter").getAttribute("aria-valuenow")).toBe("0");
    expect(await floor.locator("abbr.term").getAttribute("title")).toMatch(/floor/);
    for (const budget of await health.locator("li[data-budget]").all()) {
      const used = Number(await budget.getByRole("meter").getAttribute("aria-valuenow"));
      expect(used).toBeGreaterThanOrEqual(0);
      expect(used).toBeLessThanOrEqual(1);
      expect(await budget.locator("abbr.term").getAttribute("title")).toBeTruthy();
    }
    await screenshot(page, "background-health");
    await page.close();
  });
});

describe("names described", () => {
  it("tools in a chat, layers on the cognition page and knowledge stages each have a one-line description", async () => {
    const chat = await rig.c.client.createChatSession({ approval_mode: "never" });
    await drain(rig.c.client.sendMessage(chat.session_id, "Who picked PostgreSQL?"));
    const page = await rig.page(`#/sessions/chat/${chat.session_id}`);
    const tool = page.locator("li[data-kind=tool] abbr.term").first();
    await tool.waitFor();
    expect(await tool.getAttribute("title")).toMatch(/question answering/i);
    await page.locator("li[data-kind=text] [data-testid=answer-sources] summary").click();
    const layers = page.locator("li[data-kind=text] .cognition abbr.term");
    expect(await layers.count()).toBeGreaterThan(0);
    for (const layer of await layers.all()) expect(await layer.getAttribute("title")).toMatch(/^\w+ \(/);

    await page.goto(`${rig.c.url}/console/#/cognition`);
    const rows = page.getByRole("table", { name: "layer counters per window" }).locator("tbody th abbr.term");
    await expect.poll(() => rows.count()).toBe(13);
    expect(await rows.filter({ hasText: "sabha" }).getAttribute("title")).toMatch(/^sabha \(the council\)/);
    const glossary = page.getByTestId("glossary");
    await glossary.getByText("Cognitive layers").click();
    expect(await glossary.locator("dt").first().textContent()).toBe("prana");

    await page.goto(`${rig.c.url}/console/#/memory/knowledge`);
    const stage = page.getByTestId("knowledge-counts").locator("abbr.term[data-term=shravan]");
    await stage.waitFor();
    expect(await stage.getAttribute("title")).toMatch(/^shravan/);
    await page.close();
  });
});
