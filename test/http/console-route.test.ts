// /console: the built page and its assets, under security headers; traversal and unknown assets are refused.
import { afterAll, beforeAll, expect, it } from "vitest";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { mountConsole } from "../../src/transports/http/console.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => svc.cleanup());

const built = () => {
  const app = new Hono();
  mountConsole(app, svc.config.consoleDir);
  return app;
};

it("serves the page under a CSP with no inline script, and its hashed assets cached for good", async () => {
  const app = built();
  const redirect = await app.request("/console");
  expect(redirect.status).toBe(308);
  expect(redirect.headers.get("location")).toBe("/console/");
  const page = await app.request("/console/");
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  expect(page.headers.get("cache-control")).toBe("no-cache");
  const csp = page.headers.get("content-security-policy")!;
  for (const directive of ["script-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"])
    expect(csp).toContain(directive);
  expect(csp).not.toContain("unsafe-inline");
  expect(page.headers.get("x-content-type-options")).toBe("nosniff");
  const html = await page.text();
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1]!;
  const asset = await app.request(script);
  expect(asset.status).toBe(200);
  expect(asset.headers.get("content-type")).toMatch(/^text\/javascript/);
  expect(asset.headers.get("cache-control")).toContain("immutable");
  // A deep link is the page too: the router reads the hash, and a path it does not know still gets the page.
  expect((await app.request("/console/sessions/anything")).status).toBe(200);
});

it("refuses unknown assets and paths that climb out of the build", async () => {
  const app = built();
  expect((await app.request("/console/assets/nope.js")).status).toBe(404);
  for (const path of [
    "/console/assets/../../package.json",
    "/console/assets/%2e%2e/%2e%2e/package.json",
    "/console/assets/..%2f..%2fpackage.json",
  ]) {
    const res = await app.request(path);
    expect(res.status, path).not.toBe(200);
  }
});

it("says how to build the console when it is not built, instead of a bare 404", async () => {
  const empty = mkdtempSync(join(tmpdir(), "smriti-console-"));
  mkdirSync(join(empty, "assets"));
  writeFileSync(join(empty, "assets", "x.js"), "1");
  const app = new Hono();
  mountConsole(app, empty);
  const res = await app.request("/console/");
  expect(res.status).toBe(503);
  expect(await res.text()).toContain("npm ci");
  rmSync(empty, { recursive: true, force: true });
});
