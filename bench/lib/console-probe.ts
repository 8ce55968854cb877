// The in-page probe (source text, run before the console's own scripts): signs in and timestamps the timeline's render.
// performance.now() counts from the navigation's start, so every figure is "ms since navigation start".

export interface ProbeMarks {
  /** The stream indicator first said "stream live" (the events stream opened). */
  live: number | null;
  /** The timeline first had a row. */
  firstRow: number | null;
  /** The DOM held every expected row and the session's last row (a MutationObserver callback, before paint). */
  complete: number | null;
  /** After the next frame following `complete` (rAF, then a task): its style, layout and paint are done. */
  painted: number | null;
  /** Rows when the probe last looked, and how many times the row count changed on the way (renders that added rows). */
  rows: number;
  rowCountChanges: number;
  /** Navigation timing: the page's HTML received, DOMContentLoaded, and the bundle's script fetched. */
  responseEnd: number;
  domContentLoaded: number;
  scriptFetched: number | null;
}

export function probeSource(token: string, expectRows: number, lastRowKey: string): string {
  return `(() => {
  sessionStorage.setItem("smriti.console.token", ${JSON.stringify(token)});
  const p = { live: null, firstRow: null, complete: null, painted: null, rows: 0, rowCountChanges: 0 };
  window.__consoleProbe = p;
  const check = () => {
    const now = performance.now();
    if (p.live === null && document.querySelector('[data-testid="connection"]')?.textContent?.includes("live")) p.live = now;
    const ol = document.querySelector('ol[data-testid="timeline"]');
    if (!ol || p.complete !== null) return;
    const rows = Number(ol.getAttribute("data-rows"));
    if (rows !== p.rows) p.rowCountChanges++;
    p.rows = rows;
    if (p.firstRow === null && rows > 0) p.firstRow = now;
    if (rows === ${expectRows} && ol.querySelector('li.row[data-key="' + CSS.escape(${JSON.stringify(lastRowKey)}) + '"]')) {
      p.complete = now;
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => { p.painted = performance.now(); observer.disconnect(); };
        ch.port2.postMessage(0);
      });
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["data-rows"] });
})();`;
}

/** Reads the probe's marks and the navigation timing (evaluated in the page). */
export const READ_MARKS = `(() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const script = performance.getEntriesByType("resource").find((r) => r.name.endsWith(".js"));
  return { ...window.__consoleProbe, responseEnd: nav.responseEnd, domContentLoaded: nav.domContentLoadedEventEnd, scriptFetched: script ? script.responseEnd : null };
})()`;
