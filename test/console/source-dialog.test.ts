// The console keeps the operator's place (issue 41): closing a cited source's dialog (by its button and by Escape) leaves the
// results where they were, and a page that fails says so inside the shell instead of blanking the console.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startRig, type ConsoleRig } from "./support.ts";

let rig: ConsoleRig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.close());
afterEach(() => rig.assertNoErrors());

describe("the source dialog", () => {
  for (const how of ["the Close button", "Escape"] as const) {
    it(`closes by ${how} and the recall results stay`, async () => {
      const page = await rig.page("#/memory/recall");
      await page.getByLabel("Query").fill("nightly backups");
      await page.getByRole("button", { name: "Run" }).click();
      const first = page.locator(".citations li").first();
      await first.getByRole("button").click();
      await page.getByTestId("cited-span").waitFor();
      if (how === "Escape") await page.keyboard.press("Escape");
      else await page.locator("dialog.source").getByRole("button", { name: "Close" }).click();
      await page.locator("dialog.source").waitFor({ state: "detached" });
      expect(await page.locator("nav.top").count()).toBe(1);
      expect(await page.locator(".citations li").count()).toBeGreaterThan(0);
      expect(await page.getByTestId("page-error").count()).toBe(0);
      await page.close();
    });
  }
});

describe("a page that fails", () => {
  it("shows what failed inside the shell; the operator stays signed in and moves on", async () => {
    // A source without its chunk offsets makes the dialog throw while it renders: that failure and React's report of it
    // are this test's intent, so those console errors are expected (any other is not).
    const page = await rig.page("#/memory/recall", { expected: /reading 'find'|the memory page failed/ });
    await page.route("**/v1/memory/source**", (route) =>
      route.fulfill({ json: { source_path: "adr/0007-ledger-database.md", content: "x" } }),
    );
    await page.getByLabel("Query").fill("nightly backups");
    await page.getByRole("button", { name: "Run" }).click();
    await page.locator(".citations li").first().getByRole("button").click();
    const failed = page.getByTestId("page-error");
    await failed.waitFor();
    expect(await failed.textContent()).toContain("The memory page failed");
    expect(await failed.textContent()).toContain("reading 'find'");
    expect(await page.getByTestId("token-scopes").count()).toBe(1);
    await page.getByRole("link", { name: "Sessions" }).click();
    await page.getByRole("heading", { name: "Sessions" }).waitFor();
    expect(await page.getByTestId("page-error").count()).toBe(0);
    await page.close();
  });
});
