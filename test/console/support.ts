// The console's browser tests: a service with the console, Chromium, a page signed in with a token, and seeded memory.
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";
import { launchChromium } from "../helpers/browser.ts";
import { startConsoleService, type ConsoleService } from "../helpers/console-service.ts";

export const SEED = {
  source_path: "adr/0007-ledger-database.md",
  content: "# Ledger database\n\n## Decision\n\nAlice picked PostgreSQL for the ledger in March because it has transactions.\n\n## Consequences\n\nBob runs the nightly backups with pgBackRest.\n",
};

export interface ConsoleRig {
  c: ConsoleService;
  browser: Browser;
  /** A new page already signed in (the token in sessionStorage, as the sign-in form leaves it). */
  page(hash?: string): Promise<Page>;
  close(): Promise<void>;
}

export async function startRig(): Promise<ConsoleRig> {
  const c = await startConsoleService();
  expect((await c.svc.post("/v1/memory/ingest", SEED)).status).toBe(200);
  const browser = await launchChromium();
  return {
    c,
    browser,
    async page(hash = "") {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on("pageerror", (e) => console.error(`console page error: ${e.message}`));
      await page.addInitScript(`sessionStorage.setItem("smriti.console.token", ${JSON.stringify(c.svc.token)})`);
      await page.goto(`${c.url}/console/${hash}`);
      return page;
    },
    async close() {
      await browser.close();
      await c.close();
    },
  };
}

/** The row keys the timeline shows, and how many events its rows hold (equal to the log's when none is lost or doubled). */
export async function timelineCounts(page: Page): Promise<{ keys: string[]; events: number }> {
  const keys = await page.locator("ol[data-testid=timeline] > li").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-key") ?? ""));
  const events = Number(await page.getAttribute("ol[data-testid=timeline]", "data-events"));
  return { keys, events };
}

/** How many events the session's log holds (read once over the public stream, not following). */
export async function loggedEvents(c: ConsoleService, sessionId: string): Promise<number> {
  let n = 0;
  for await (const _ of c.client.sessionEvents(sessionId, { follow: false })) n++;
  return n;
}

export async function drain(events: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of events);
}
