// Debian's Chromium under playwright-core (nothing downloaded): headless, no background networking, a fresh profile.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

const CHROMIUM = process.env.SMRITI_CHROMIUM ?? "/usr/bin/chromium";

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `no Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install chromium; .ci/run does) or set SMRITI_CHROMIUM`,
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/** Screenshots land in test-results/console (gitignored): the artefacts of a run. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = join(process.cwd(), "test-results", "console");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
