// Loads a session's console page in headless Chromium, each time in a fresh context (cold cache), and reads the probe's marks.
import type { Browser } from "playwright-core";
import { probeSource, READ_MARKS, type ProbeMarks } from "./console-probe.ts";
import { mainThread, topSelfTimes, type HotFunction, type MainThread } from "./console-profile.ts";

export interface RenderRun extends ProbeMarks {
  /** ms from page.goto being called to the probe's `painted`, measured in Node (includes starting the navigation). */
  wallMs: number;
  /** The renderer's main thread over the whole load (to `painted` and a little after). */
  mainThread: MainThread;
  /** With `profile`: the functions with the most self time during the load (sampling adds some overhead). */
  hot?: HotFunction[];
}

export interface RenderTarget {
  url: string;
  token: string;
  rows: number;
  lastRowKey: string;
}

export async function loadOnce(
  browser: Browser,
  target: RenderTarget,
  opts: { profile?: boolean; timeoutMs?: number } = {},
): Promise<RenderRun> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await context.addInitScript({ content: probeSource(target.token, target.rows, target.lastRowKey) });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    if (opts.profile) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    const t0 = performance.now();
    await page.goto(target.url);
    try {
      // A function, not a string: the console's CSP forbids eval, which a string predicate needs.
      await page.waitForFunction(
        () => (globalThis as { __consoleProbe?: ProbeMarks }).__consoleProbe?.painted != null,
        undefined,
        { timeout: opts.timeoutMs ?? 60_000, polling: 20 },
      );
    } catch (err) {
      const seen = (await page.evaluate(READ_MARKS)) as ProbeMarks;
      throw new Error(
        `the timeline did not reach ${target.rows} rows ending with ${target.lastRowKey} (saw ${seen.rows} rows)`,
        { cause: err },
      );
    }
    const wallMs = performance.now() - t0;
    const hot = opts.profile ? topSelfTimes((await cdp.send("Profiler.stop")).profile) : undefined;
    const marks = (await page.evaluate(READ_MARKS)) as ProbeMarks;
    return { ...marks, wallMs, mainThread: await mainThread(cdp), ...(hot ? { hot } : {}) };
  } finally {
    await context.close();
  }
}
