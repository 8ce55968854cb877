// Serves the console's built files at /console: hashed assets cached for good, the page itself never, all under a strict CSP.
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import type { Env, Hono } from "hono";
import { routes } from "../../contract/routes.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
};

/** Only the page's own files and the service's own API: no inline script, no framing, no third-party origin. */
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

export function mountConsole<E extends Env>(app: Hono<E>, dir: string): void {
  const base = routes.console.path;
  app.get(base, (c) => c.redirect(`${base}/`, 308));
  app.get(`${base}/*`, async (c) => {
    const rest = decodeURIComponent(c.req.path.slice(base.length + 1));
    // Asset paths resolve inside dir only; anything else is the page (its router reads the hash).
    const asset = rest.startsWith("assets/") ? normalize(rest) : "index.html";
    if (asset.startsWith("..") || asset.includes("\0")) return c.text("not found", 404, SECURITY_HEADERS);
    const body = await readFile(join(dir, asset)).catch(() => null);
    if (!body) {
      if (asset !== "index.html") return c.text("not found", 404, SECURITY_HEADERS);
      const hint =
        "The console is not built: run `npm ci` (or `npm run build:console`) in the service's folder, then reload.";
      return c.text(hint, 503, SECURITY_HEADERS);
    }
    const cache = asset === "index.html" ? "no-cache" : "public, max-age=31536000, immutable";
    return c.body(body, 200, {
      ...SECURITY_HEADERS,
      "content-type": TYPES[extname(asset)] ?? "application/octet-stream",
      "cache-control": cache,
    });
  });
}
