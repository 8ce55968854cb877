// The sessions list in Chromium (issue 41): each session titled by its first message or task with its id beside it, and
// the sub-agent sessions a `delegate` call starts drawn under their parent instead of as chats of their own.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { drain, startRig, type ConsoleRig } from "./support.ts";

let rig: ConsoleRig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.close());
afterEach(() => rig.assertNoErrors());

describe("the sessions list", () => {
  it("titles each session by its first message or task, the id kept beside it", async () => {
    const chat = await rig.c.client.createChatSession({ approval_mode: "never" });
    await drain(rig.c.client.sendMessage(chat.session_id, "Who picked PostgreSQL?"));
    const fresh = await rig.c.client.createChatSession({});
    const task = "Who runs the nightly backups?";
    const background = (await rig.c.client.startSession({ task, approval_mode: "never" })).session.session_id;
    const page = await rig.page();
    const row = (id: string) => page.locator(`tr[data-session-id="${id}"]`);
    await row(chat.session_id).waitFor();
    expect(await row(chat.session_id).locator(".session-title").textContent()).toBe("Who picked PostgreSQL?");
    expect(await row(chat.session_id).locator(".session-id").textContent()).toContain(chat.session_id);
    expect(await row(fresh.session_id).locator(".session-title").textContent()).toBe("New chat, no message yet");
    await row(background).waitFor();
    expect(await row(background).locator(".session-title").textContent()).toBe(task);
    await row(chat.session_id).locator(".session-title").click();
    await expect.poll(() => page.url()).toContain(`#/sessions/chat/${chat.session_id}`);
    // The session's own page is headed by the same title.
    await expect.poll(() => page.locator(".session-head h2").textContent()).toBe("Sessions / Who picked PostgreSQL?");
    await page.close();
  });

  it("nests the sub-agent sessions a delegate call started under their parent", async () => {
    const parent = await rig.c.client.createChatSession({ approval_mode: "never" });
    await drain(rig.c.client.sendMessage(parent.session_id, "Who picked PostgreSQL? Who runs the nightly backups?"));
    const page = await rig.page();
    const children = page.locator(`tr.subagent[data-parent-id="${parent.session_id}"]`);
    await expect.poll(() => children.count()).toBe(2);
    const order = await page
      .locator("table.sessions tbody tr")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-session-id")));
    const at = order.indexOf(parent.session_id);
    const childIds = await children.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-session-id")));
    expect(order.slice(at + 1, at + 3).sort()).toEqual(childIds.sort());
    expect(await children.first().locator("td").nth(1).textContent()).toBe("sub-agent");
    // No sub-agent session shows as an ordinary top-level chat.
    expect(await page.locator("tr:not(.subagent)[data-parent-id]").count()).toBe(0);
    await screenshot(page, "sessions-nested");
    // A sub-agent's page names the session that delegated to it.
    await children.first().locator(".session-title").click();
    await expect.poll(() => page.locator(".session-head").textContent()).toContain(`sub-agent of ${parent.session_id}`);
    await page.close();
  });
});
