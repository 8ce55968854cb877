// `npm run screenshots:console [-- --out=DIR]`: the README's pictures of the console, taken from a real service in
// headless Chromium (a background session with its health panel, a chat with a delegated question, the sessions list).
// It serves web/dist as built: `npm run build:console` first.
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { launchChromium } from "../test/helpers/browser.ts";
import { startConsoleService } from "../test/helpers/console-service.ts";
import { SEED } from "../test/console/seed.ts";
import { progress } from "./lib/log.ts";

const out = resolve(process.argv.find((a) => a.startsWith("--out="))?.slice(6) ?? "test-results/screenshots");
const VIEWPORT = { width: 1280, height: 820 };
mkdirSync(out, { recursive: true });

const c = await startConsoleService();
const browser = await launchChromium();
const drain = async (events: AsyncIterable<unknown>) => {
  for await (const _ of events);
};
try {
  await c.svc.post("/v1/memory/ingest", SEED);
  const background = (
    await c.client.startSession({ task: "Who picked PostgreSQL for the ledger, and why?", approval_mode: "never" })
  ).session.session_id;
  const chat = await c.client.createChatSession({ approval_mode: "never" });
  await drain(c.client.sendMessage(chat.session_id, "Who picked PostgreSQL?"));
  await drain(c.client.sendMessage(chat.session_id, "Who picked PostgreSQL? Who runs the nightly backups?"));

  const open = async (hash: string): Promise<Page> => {
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.addInitScript(`sessionStorage.setItem("smriti.console.token", ${JSON.stringify(c.svc.token)})`);
    await page.goto(`${c.url}/console/${hash}`);
    return page;
  };
  const shoot = async (page: Page, name: string) => {
    await page.mouse.move(VIEWPORT.width - 1, VIEWPORT.height - 1); // no row's hover tools in the picture
    await page.screenshot({ path: join(out, name) });
    progress(`wrote ${join(out, name)}`);
    await page.close();
  };

  const bg = await open(`#/sessions/background/${background}`);
  await bg.locator("[data-testid=health][data-status=completed]").waitFor({ timeout: 30_000 });
  await bg.locator("li[data-kind=text] [data-testid=answer-sources] summary").click();
  // The top: the header, the task, the run's first rows and the health panel (the page follows the newest row).
  await bg.evaluate("window.scrollTo(0, 0)");
  await shoot(bg, "console.png");

  const talk = await open(`#/sessions/chat/${chat.session_id}`);
  await talk.locator("li[data-kind=text] [data-testid=answer-sources]").nth(1).waitFor();
  await talk.locator("li[data-kind=text] [data-testid=answer-sources] summary").last().click();
  await talk.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)");
  await shoot(talk, "console-chat.png");

  const list = await open("");
  await list.locator("tr.subagent").first().waitFor();
  await shoot(list, "console-sessions.png");
} finally {
  await browser.close();
  await c.close();
}
