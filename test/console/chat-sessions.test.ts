// The console in Chromium against a real service: sign-in, a chat turn, an approval, a branch, the debug view and a
// stream that drops and resumes without duplicate rows.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { startConsoleService } from "../helpers/console-service.ts";
import { drain, loggedEvents, SEED, startRig, timelineCounts, type ConsoleRig } from "./support.ts";

let rig: ConsoleRig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.close());
afterEach(() => rig.assertNoErrors());

describe("sign-in", () => {
  it("a wrong token gets a clear message and no way in; the right one lists the sessions", async () => {
    // The browser logs the refused token's 401: refusing it is what this test checks.
    const page = await rig.newPage({ expected: /status of 401 \(Unauthorized\)/ });
    await page.goto(`${rig.c.url}/console`);
    await page.fill("#token", "smr_not_a_real_token");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("did not accept this token");
    expect(await page.locator("nav.top").count()).toBe(0);
    await screenshot(page, "sign-in-wrong-token");
    await page.fill("#token", rig.c.svc.token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Sessions" }).waitFor();
    expect(await page.evaluate("sessionStorage.getItem('smriti.console.token')")).toBe(rig.c.svc.token);
    await page.close();
  });

  it("says the service cannot be reached when it is down", async () => {
    const down = await startConsoleService();
    // The browser logs the refused connection to the stopped service: this test stops it on purpose.
    const page = await rig.newPage({ expected: /net::ERR_CONNECTION_REFUSED/ });
    await page.goto(`${down.url}/console/`);
    await down.close();
    await page.fill("#token", down.svc.token);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("cannot be reached");
    await page.close();
  });
});

describe("a chat session", () => {
  it("streams a turn: the user's message, a tool row, the answer with citations that open the source at the span", async () => {
    const page = await rig.page();
    await page.getByRole("button", { name: "New chat" }).click();
    await page.locator("#message").fill("Who picked PostgreSQL?");
    await page.keyboard.press("Enter");
    const answer = page.locator("li[data-kind=text]");
    // The citations fold beneath the answer: its summary opens them.
    await answer.getByTestId("answer-sources").locator("summary").click();
    await answer.locator(".citations").waitFor();
    expect(await answer.locator("p").first().textContent()).toContain("Alice");
    expect(await page.locator("li[data-kind=message]").textContent()).toContain("Who picked PostgreSQL?");
    const tool = page.locator("li[data-kind=tool]").first();
    expect(await tool.textContent()).toMatch(/service_grounded_answer.*ok/);
    expect(await tool.getAttribute("data-key")).toMatch(/^tool:call_/);
    await screenshot(page, "chat-turn");
    await answer.locator(".citations button").first().click();
    const span = page.getByTestId("cited-span");
    await span.waitFor();
    expect(SEED.content).toContain(await span.textContent());
    expect(await page.locator("dialog.source h3").textContent()).toContain(SEED.source_path);
    await screenshot(page, "citation-source");
    await page.keyboard.press("Escape");
    await page.close();
  });

  it("waits on an approval that a click lets through; the tool then runs", async () => {
    const state = await rig.c.client.createChatSession({ approval_mode: "always" });
    const page = await rig.page(`#/sessions/chat/${state.session_id}`);
    await page.locator("#message").fill("Who picked PostgreSQL?");
    await page.keyboard.press("Enter");
    const approval = page.locator("li[data-kind=approval]");
    await approval.getByRole("button", { name: "Approve" }).waitFor();
    expect(await page.getByTestId("session-status").textContent()).toBe("awaiting_approval");
    await screenshot(page, "approval-pending");
    await approval.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => approval.first().textContent()).toContain("approved");
    await page.locator("li[data-kind=tool] .status-ok").first().waitFor();
    const detail = await rig.c.client.getChatSession(state.session_id);
    expect(detail.pending_approval?.request_id).not.toBe(await approval.first().getAttribute("data-request-id"));
    await page.close();
  });

  it("branches a new session from an event; the new one names its parent", async () => {
    const state = await rig.c.client.createChatSession({ approval_mode: "never" });
    await drain(rig.c.client.sendMessage(state.session_id, "Who picked PostgreSQL?"));
    const page = await rig.page(`#/sessions/chat/${state.session_id}`);
    const answer = page.locator("li[data-kind=text]");
    await answer.waitFor();
    await answer.getByRole("button", { name: "Branch here" }).click();
    await expect.poll(() => Promise.resolve(new URL(page.url()).hash)).not.toContain(state.session_id);
    const branchId = decodeURIComponent(new URL(page.url()).hash.split("/").pop()!);
    await expect.poll(() => page.locator(".session-head").textContent()).toContain(`branched from ${state.session_id}`);
    const branch = await rig.c.client.getChatSession(branchId);
    expect(branch.session.parent_session_id).toBe(state.session_id);
    expect(branch.session.branch_source_event_id).toMatch(new RegExp(`^${state.session_id}/\\d+$`));
    await page.close();
  });

  it("the debug view adds the debug-tier rows and every raw payload, tool arguments included", async () => {
    const state = await rig.c.client.createChatSession({ approval_mode: "never" });
    await drain(rig.c.client.sendMessage(state.session_id, "Who picked PostgreSQL?"));
    const page = await rig.page(`#/sessions/chat/${state.session_id}`);
    await page.locator("li[data-kind=text]").waitFor();
    expect(await page.locator("li[data-kind=diagnostic]").count()).toBe(0);
    expect(await page.locator("details.raw").count()).toBe(0);
    await page.getByLabel("Debug view").check();
    await page.locator("li[data-kind=diagnostic]").first().waitFor();
    const diagnostics = await page.locator("li[data-kind=diagnostic]").allTextContents();
    expect(diagnostics.some((d) => d.startsWith("usage:"))).toBe(true);
    expect(diagnostics.some((d) => d.startsWith("tools offered:"))).toBe(true);
    const args = page.locator("li[data-kind=tool]").first().locator("details.raw", { hasText: "arguments" }).first();
    await args.locator("summary").click();
    expect(await args.locator("pre").textContent()).toContain("question");
    await screenshot(page, "chat-debug-view");
    await page.close();
  });

  it("after a network drop it reconnects with Last-Event-ID: new events arrive, none twice", async () => {
    const state = await rig.c.client.createChatSession({ approval_mode: "never" });
    await drain(rig.c.client.sendMessage(state.session_id, "Who picked PostgreSQL?"));
    // The browser logs the streams this test cuts and refuses (reset, or cut mid-chunk): the drop is the test.
    const page = await rig.page(`#/sessions/chat/${state.session_id}`, {
      expected: /net::ERR_(CONNECTION_RESET|INCOMPLETE_CHUNKED_ENCODING)/,
    });
    await expect.poll(() => page.getByTestId("connection").textContent()).toBe("stream live");
    await expect
      .poll(async () => (await timelineCounts(page)).events)
      .toBe(await loggedEvents(rig.c, state.session_id));
    // Cut every connection and keep the stream route refused for a while: the console says it is reconnecting.
    const resumed: (string | null)[] = [];
    await page.route("**/events/stream**", (route) => route.abort("connectionreset"));
    rig.c.dropConnections();
    await expect.poll(() => page.getByTestId("connection").textContent()).toBe("stream reconnecting");
    await drain(rig.c.client.sendMessage(state.session_id, "Who runs the backups?"));
    page.on("request", (r) => r.url().includes("/events/stream") && resumed.push(r.headers()["last-event-id"] ?? null));
    await page.unroute("**/events/stream**");
    await expect.poll(() => page.getByTestId("connection").textContent(), { timeout: 15_000 }).toBe("stream live");
    await expect.poll(() => page.locator("li[data-kind=message]").count()).toBe(2);
    const logged = await loggedEvents(rig.c, state.session_id);
    await expect.poll(async () => (await timelineCounts(page)).events).toBe(logged);
    const { keys } = await timelineCounts(page);
    expect(new Set(keys).size).toBe(keys.length);
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed.every((id) => id !== null && id.startsWith(`${state.session_id}/`))).toBe(true);
    expect(await page.locator("li[data-kind=text]").last().textContent()).toContain("Bob");
    await page.close();
  });
});

describe("keyboard and contrast", () => {
  it("signs in, opens a new chat and sends a message with the keyboard alone", async () => {
    const page = await rig.newPage();
    const focused = (what: string) => page.evaluate(`document.activeElement?.${what} ?? ""`) as Promise<string>;
    /** Presses Tab until `reached` holds for the focused element; fails with where the focus went if it never does. */
    const tabTo = async (reached: () => Promise<boolean>, label: string) => {
      for (let i = 0; i < 40; i++) {
        if (await reached()) return;
        await page.keyboard.press("Tab");
      }
      throw new Error(
        `Tab never reached ${label}; focus is on <${await focused("tagName")}> "${await focused("textContent")}"`,
      );
    };
    await page.goto(`${rig.c.url}/console/`);
    await expect.poll(() => focused("id")).toBe("token"); // the token field has focus on arrival
    await page.keyboard.type(rig.c.svc.token);
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "New chat" }).waitFor({ timeout: 10_000 });
    await tabTo(async () => (await focused("textContent")) === "New chat", "New chat");
    await page.keyboard.press("Enter");
    await page.locator("#message").waitFor({ timeout: 10_000 });
    await tabTo(async () => (await focused("id")) === "message", "the message box");
    await page.keyboard.type("Who picked PostgreSQL?");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("li[data-kind=text]").textContent(), { timeout: 10_000 }).toContain("Alice");
    await page.close();
  });

  it("text colours meet WCAG AA contrast (4.5:1) on the page and panel backgrounds, in light and dark schemes", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const page = await rig.newPage({ colorScheme });
      await page.goto(`${rig.c.url}/console/`);
      const vars = (await page.evaluate(
        `(() => { const s = getComputedStyle(document.documentElement); return Object.fromEntries(["--bg","--panel","--fg","--muted","--accent","--ok","--warn","--bad"].map((v) => [v, s.getPropertyValue(v).trim()])); })()`,
      )) as Record<string, string>;
      for (const bg of ["--bg", "--panel"])
        for (const fg of ["--fg", "--muted", "--accent", "--ok", "--warn", "--bad"])
          expect(contrast(vars[fg]!, vars[bg]!), `${colorScheme} ${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
      await page.close();
    }
  });
});

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5]
      .map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}
