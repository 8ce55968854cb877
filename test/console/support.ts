// The console's browser tests: a service with the console, Chromium, a page signed in with a token, and seeded memory.
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { expect } from "vitest";
import { launchChromium } from "../helpers/browser.ts";
import { startConsoleService, type ConsoleService } from "../helpers/console-service.ts";
import { SEED } from "./seed.ts";

export { SEED };

export interface PageOptions extends BrowserContextOptions {
  /**
   * Console errors this page's test causes on purpose (a refused token's 401, a stopped service): matched messages are
   * not counted. Page errors (uncaught exceptions) are counted always.
   */
  expected?: RegExp;
}

export interface ConsoleRig {
  c: ConsoleService;
  browser: Browser;
  /** A new page, not signed in, whose page errors and console errors are collected for `assertNoErrors`. */
  newPage(opts?: PageOptions): Promise<Page>;
  /** A new page already signed in (the token in sessionStorage, as the sign-in form leaves it). */
  page(hash?: string, opts?: PageOptions): Promise<Page>;
  /** Fails with every page error and console error logged since the last call (an afterEach calls it): issue 41. */
  assertNoErrors(): void;
  close(): Promise<void>;
}

export async function startRig(): Promise<ConsoleRig> {
  const c = await startConsoleService();
  expect((await c.svc.post("/v1/memory/ingest", SEED)).status).toBe(200);
  const browser = await launchChromium();
  const errors: string[] = [];
  const newPage = async ({ expected, ...opts }: PageOptions = {}) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, ...opts });
    page.on("pageerror", (e) => errors.push(`page error: ${e.stack ?? e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error" && !expected?.test(m.text()))
        errors.push(`console error: ${m.text()} (${m.location().url})`);
    });
    return page;
  };
  return {
    c,
    browser,
    newPage,
    async page(hash = "", opts = {}) {
      const page = await newPage(opts);
      await page.addInitScript(`sessionStorage.setItem("smriti.console.token", ${JSON.stringify(c.svc.token)})`);
      await page.goto(`${c.url}/console/${hash}`);
      return page;
    },
    assertNoErrors() {
      const seen = errors.splice(0);
      expect(seen, "the console logged errors").toEqual([]);
    },
    async close() {
      await browser.close();
      await c.close();
    },
  };
}

/** The row keys the timeline shows, and how many events its rows hold (equal to the log's when none is lost or doubled). */
export async function timelineCounts(page: Page): Promise<{ keys: string[]; events: number }> {
  const keys = await page
    .locator("ol[data-testid=timeline] > li")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-key") ?? ""));
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
