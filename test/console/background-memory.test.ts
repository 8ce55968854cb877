// The console in Chromium: a background session started with a health policy, paused and resumed with its health panel
// following; memory (recall, a pack, a grounded answer and its trajectory) and the cognitive stack's pictures.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { SEED, startRig, type ConsoleRig } from "./support.ts";

let rig: ConsoleRig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.close());
afterEach(() => rig.assertNoErrors());

describe("a background session", () => {
  it("starts from the form with a health policy, waits on an approval the operator gives, and completes", async () => {
    const page = await rig.page();
    await page.getByRole("button", { name: "Start background session" }).click();
    const form = page.getByRole("form", { name: "Start a background session" });
    await form.getByLabel("Task").fill("Who picked PostgreSQL for the ledger?");
    await form.getByLabel("Approvals").selectOption("always");
    await form.getByLabel("When a budget is crossed").selectOption("approval");
    await form.getByLabel("Max total tokens").fill("50000");
    await form.getByLabel("Max failed tool calls").fill("3");
    await form.getByRole("button", { name: "Start" }).click();
    await page.locator("li[data-kind=approval]").waitFor();
    const sessionId = decodeURIComponent(new URL(page.url()).hash.split("/").pop()!);
    const started = await rig.c.client.getSession(sessionId);
    expect(started.task).toBe("Who picked PostgreSQL for the ledger?");
    expect(started.policy.health).toMatchObject({
      action: "approval",
      max_total_tokens: 50000,
      max_failed_tool_calls: 3,
    });

    const health = page.getByTestId("health");
    await expect.poll(() => health.getAttribute("data-status")).toBe("awaiting_approval");
    expect(await health.textContent()).toContain("max_total_tokens");
    expect(await page.getByTestId("risk-flags").textContent()).toContain("waiting on an operator");
    await screenshot(page, "background-waiting");
    for (let i = 0; (await page.getByTestId("session-status").textContent()) !== "completed"; i++) {
      // Approve whatever it waits on (each tool call asks under "always") until the run completes.
      expect(i).toBeLessThan(10);
      const pending = page.locator("li[data-kind=approval] button", { hasText: "Approve" });
      if ((await pending.count()) > 0) await pending.first().click();
      await new Promise((r) => setTimeout(r, 200));
    }
    await expect.poll(() => health.getAttribute("data-status")).toBe("completed");
    expect(await page.locator("li[data-kind=approval]", { hasText: "approved" }).count()).toBeGreaterThan(0);
    expect(await page.locator("li[data-kind=checkpoint]").count()).toBeGreaterThan(0);
    expect(await page.locator("li[data-kind=step]").count()).toBeGreaterThan(0);
    expect(await page.locator("li[data-kind=text]").last().textContent()).toContain("Alice");
    await screenshot(page, "background-completed");
    await page.close();
  });

  it("pauses a running session and resumes it, the health panel following each change", async () => {
    // A bridged command that runs until stopped keeps the session running long enough to act on.
    const started = await rig.c.client.startSession({
      task: "wait",
      engine: "command",
      command: ["sleep", "60"],
      approval_mode: "never",
    });
    const sessionId = started.session.session_id;
    const page = await rig.page(`#/sessions/background/${sessionId}`);
    const health = page.getByTestId("health");
    await expect.poll(() => health.getAttribute("data-status"), { timeout: 10_000 }).toBe("running");
    await page.getByRole("button", { name: "Pause", exact: true }).click();
    await expect.poll(() => page.getByTestId("session-status").textContent(), { timeout: 10_000 }).toBe("paused");
    await expect.poll(() => health.getAttribute("data-status")).toBe("paused");
    expect((await rig.c.client.getSession(sessionId)).session.status).toBe("paused");
    await screenshot(page, "background-paused");
    await page.getByRole("button", { name: "Resume", exact: true }).click();
    await expect.poll(() => health.getAttribute("data-status"), { timeout: 10_000 }).toBe("running");
    expect((await rig.c.client.getSession(sessionId)).session.attempt_count).toBe(2);
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    await expect.poll(() => health.getAttribute("data-status"), { timeout: 10_000 }).toBe("cancelled");
    await page.close();
  });

  it("lists sessions with status and health, and filters by status", async () => {
    const chat = await rig.c.client.createChatSession({});
    const page = await rig.page();
    const rows = page.locator("table.sessions tbody tr");
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    await page.getByLabel("Filter by status").selectOption("completed");
    await expect.poll(async () => (await rows.allTextContents()).every((t) => t.includes("completed"))).toBe(true);
    expect(await page.locator(`tr[data-session-id="${chat.session_id}"]`).count()).toBe(0);
    expect(await rows.filter({ hasText: "background" }).first().locator("[role=meter]").count()).toBe(1);
    await screenshot(page, "sessions-list");
    await page.close();
  });
});

describe("memory and cognition", () => {
  it("recall shows citations; one opens its source with the span highlighted", async () => {
    const page = await rig.page("#/memory/recall");
    await page.getByLabel("Query").fill("nightly backups");
    await page.getByRole("button", { name: "Run" }).click();
    const first = page.locator(".citations li").first();
    await first.waitFor();
    await first.getByRole("button").click();
    const span = page.getByTestId("cited-span");
    await span.waitFor();
    expect(await span.textContent()).toContain("Bob runs the nightly backups");
    expect(SEED.content).toContain(await span.textContent());
    await screenshot(page, "memory-recall-source");
    await page.keyboard.press("Escape");
    // Each citation shows when it occurred; a window that ends before the seed was ingested holds nothing.
    expect(await first.locator("time").getAttribute("datetime")).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await page.getByLabel("until").fill("2000-01-01");
    await page.getByRole("button", { name: "Run" }).click();
    await page.getByText("0 hit(s)").waitFor();
    await page.close();
  });

  it("a pack preview within a budget, and a grounded answer whose trajectory replays from the audit log", async () => {
    const page = await rig.page("#/memory/pack");
    await page.getByLabel("Intent").fill("ledger database decision");
    await page.getByRole("button", { name: "Run" }).click();
    await expect
      .poll(() => page.locator("section[aria-label=Memory]").textContent())
      .toMatch(/\d+ item\(s\), \d+ of 800 tokens/);
    await page.goto(`${rig.c.url}/console/#/memory/answer`);
    await page.getByLabel("Question").fill("Who picked PostgreSQL?");
    await page.getByRole("button", { name: "Run" }).click();
    await expect.poll(() => page.getByTestId("grounded-answer").textContent()).toContain("Alice");
    await page.getByRole("button", { name: "Replay trajectory" }).click();
    const steps = page.getByTestId("trajectory").locator("li");
    await expect.poll(() => steps.count()).toBeGreaterThan(0);
    expect((await steps.allTextContents()).join(" ")).toContain("grounded");
    await page.close();
  });

  it("decisions, open loops and the knowledge lifecycle render what the service holds", async () => {
    await rig.c.client.recordDecision({
      namespace: "eng",
      title: "Use PostgreSQL for the ledger",
      decision: "The ledger lives in PostgreSQL.",
    });
    await rig.c.svc.post("/v1/memory/ingest", {
      source_path: "todo.md",
      content: "# Todo\n\n- TODO rotate the ledger credentials\n",
    });
    const page = await rig.page("#/memory/decisions");
    await expect.poll(() => page.locator("article").first().textContent()).toContain("Use PostgreSQL for the ledger");
    await page.getByRole("link", { name: "Open loops" }).click();
    await expect
      .poll(() => page.locator("section[aria-label=Memory]").textContent())
      .toContain("rotate the ledger credentials");
    await page.getByRole("link", { name: "Knowledge" }).click();
    await expect.poll(() => page.getByTestId("knowledge-counts").textContent()).toContain("captured 0");
    await page.close();
  });

  it("the cognitive stack: counters per window and the recall latency distribution from /metrics", async () => {
    for (let i = 0; i < 3; i++) await rig.c.client.recall({ query: "ledger database" });
    const page = await rig.page("#/cognition");
    const counters = page.getByRole("table", { name: "layer counters per window" });
    await counters.waitFor();
    expect(await counters.locator("tbody tr").count()).toBe(13);
    const latency = page.getByRole("table", { name: "recall latency distribution" });
    await latency.waitFor();
    const counts = (await latency.locator("td.num").allTextContents()).map(Number);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3);
    await screenshot(page, "cognition");
    await page.close();
  });
});
