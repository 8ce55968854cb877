#!/usr/bin/env node
// Entry point of the `smriti` command: the compiled JavaScript in dist/ (built by `npm ci`), or the TypeScript sources
// through tsx when dist/ is missing or older than src/ (a checkout being edited), so a change is never run stale.
import { readdirSync, statSync } from "node:fs";
import { URL } from "node:url";

const root = new URL("../", import.meta.url);
const mtime = (url) => {
  try {
    return statSync(url).mtimeMs;
  } catch {
    return -1;
  }
};
/** The newest modification under src/ (about 250 files: a few milliseconds). */
const newestSource = () => {
  let newest = 0;
  for (const entry of readdirSync(new URL("src/", root), { recursive: true, withFileTypes: true }))
    if (entry.isFile()) newest = Math.max(newest, statSync(`${entry.parentPath ?? entry.path}/${entry.name}`).mtimeMs);
  return newest;
};

const stamp = mtime(new URL("dist/.build-stamp", root));
if (stamp > 0 && (mtime(new URL("src/", root)) < 0 || stamp >= newestSource())) {
  await import("../dist/cli/main.js");
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
