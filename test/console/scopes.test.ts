// The console in Chromium hides what the signed-in token's scopes forbid: a read-only token sees sessions and memory
// but no way to start, steer, approve or chat; a read+write one chats and starts but does not approve.
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "../../src/contract/scopes.ts";
import { startRig, type ConsoleRig } from "./support.ts";

let rig: ConsoleRig;
let chatId: string;
let backgroundId: string;
beforeAll(async () => {
  rig = await startRig();
  // A chat waiting on an approval, and a background session waiting on one, both made with the all-scope token.
  chatId = (await rig.c.client.createChatSession({ approval_mode: "on-write" })).session_id;
  for await (const _ of rig.c.client.sendMessage(chatId, "Remember that the deploy window is Friday evening."));
  backgroundId = (
    await rig.c.client.startSession({
      task: "Remember that the deploy window is Friday evening.",
      approval_mode: "on-write",
    })
  ).session.session_id;
});
afterAll(async () => rig.close());
afterEach(() => rig.assertNoErrors());

/** A page signed in with a new token of these scopes. */
async function pageWith(scopes: readonly Scope[], hash: string): Promise<Page> {
  const { token } = await rig.c.svc.issueToken("default", [], scopes);
  const page = await rig.newPage();
  await page.addInitScript(`sessionStorage.setItem("smriti.console.token", ${JSON.stringify(token)})`);
  await page.goto(`${rig.c.url}/console/${hash}`);
  await expect.poll(() => page.getByTestId("token-scopes").textContent()).toBe(`default · ${scopes.join(", ")}`);
  return page;
}

const count = (page: Page, role: "button" | "textbox", name: string) =>
  page.getByRole(role, { name, exact: true }).count();

describe("the console and the token's scopes", () => {
  it("the sign-in form takes a token whatever its scopes", async () => {
    const { token } = await rig.c.svc.issueToken("default", [], ["admin"]);
    const page = await rig.newPage();
    await page.goto(`${rig.c.url}/console`);
    await page.fill("#token", token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByTestId("token-scopes").textContent()).toBe("default · admin");
    // An admin-only token may not read sessions: the list says so instead of calling the route (a 403 in the log).
    await page.getByTestId("no-list-scope").waitFor();
    await page.close();
  });

  it("read only: the session list has no New chat or Start, a chat page no composer, approve or branch", async () => {
    const page = await pageWith(["read"], "");
    await page.locator(`tr[data-session-id="${chatId}"]`).waitFor();
    expect(await count(page, "button", "Refresh")).toBe(1);
    expect(await count(page, "button", "New chat")).toBe(0);
    expect(await count(page, "button", "Start background session")).toBe(0);
    await page.goto(`${rig.c.url}/console/#/sessions/chat/${chatId}`);
    await page.locator("ol[data-testid=timeline] > li").first().waitFor();
    await expect.poll(() => page.getByTestId("session-status").textContent()).toBe("awaiting_approval");
    expect(await count(page, "textbox", "Message")).toBe(0);
    expect(await count(page, "button", "Approve")).toBe(0);
    expect(await count(page, "button", "Branch here")).toBe(0);
    await page.goto(`${rig.c.url}/console/#/sessions/background/${backgroundId}`);
    await page.locator("ol[data-testid=timeline] > li").first().waitFor();
    for (const name of ["Pause", "Resume", "Cancel", "Approve"])
      expect(await count(page, "button", name), name).toBe(0);
    await page.close();
  });

  it("read and write: chat and start are there; a background session's approval is not (admin)", async () => {
    const page = await pageWith(["read", "write"], "");
    await page.getByRole("button", { name: "New chat", exact: true }).waitFor();
    expect(await count(page, "button", "Start background session")).toBe(1);
    await page.goto(`${rig.c.url}/console/#/sessions/chat/${chatId}`);
    await page.getByRole("textbox", { name: "Message", exact: true }).waitFor();
    // The composer shows before the timeline has drawn the pending request.
    await page.getByRole("button", { name: "Approve", exact: true }).waitFor();
    expect(await count(page, "button", "Approve")).toBe(1);
    await page.goto(`${rig.c.url}/console/#/sessions/background/${backgroundId}`);
    await page.getByRole("button", { name: "Cancel", exact: true }).waitFor();
    await expect
      .poll(() => page.getByTestId("session-status").textContent(), { timeout: 20_000 })
      .toBe("awaiting_approval");
    expect(await count(page, "button", "Approve")).toBe(0);
    await page.close();
  });
});
