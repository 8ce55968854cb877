// npm `prepare` (runs on `npm install`/`npm ci` in a checkout and when installing from git): builds dist/ (the service as
// JavaScript, and `smriti/client` with its types) and web/dist/ for the console at /console. A production install (--omit=dev) has neither TypeScript nor Vite, so it
// skips each with a note instead of failing the install.
import { spawnSync } from "node:child_process";
import { copyFileSync, writeFileSync } from "node:fs";
import { warn } from "node:console";
import { createRequire } from "node:module";
import process from "node:process";
import { fileURLToPath, pathToFileURL, URL } from "node:url";

const root = new URL("..", import.meta.url);
const resolve = (id) => {
  try {
    return createRequire(import.meta.url).resolve(id);
  } catch {
    return null;
  }
};
// NODE_ENV=production whatever the shell says: a development value would ship React's development build.
const run = (script, args) => spawnSync(process.execPath, [script, ...args], { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } }).status ?? 1;

const tsc = resolve("typescript/bin/tsc");
if (!tsc) warn("smriti: typescript is not installed (a --omit=dev install?), so dist/ is not built; `smriti/client` needs it");
else {
  // The client with its declarations, then the whole service as JavaScript (bin/smriti.js runs it while it is fresh).
  if (run(tsc, ["-p", "tsconfig.client.json"]) !== 0 || run(tsc, ["-p", "tsconfig.build.json"]) !== 0) process.exit(1);
  copyFileSync(new URL("src/store/sqlite/checkpoint-worker.js", root), new URL("dist/store/sqlite/checkpoint-worker.js", root));
  copyFileSync(new URL("src/threads/entry.js", root), new URL("dist/threads/entry.js", root));
  writeFileSync(new URL("dist/.build-stamp", root), `${new Date().toISOString()}\n`);
}

// vite's exports name no bin file; its package.json sits beside bin/.
const vitePackage = resolve("vite/package.json");
const vite = vitePackage && fileURLToPath(new URL("bin/vite.js", pathToFileURL(vitePackage)));
if (!vite) warn("smriti: vite is not installed (a --omit=dev install?), so the console (web/dist) is not built; /console says so");
else if (run(vite, ["build", "web", "--logLevel", "warn"]) !== 0) process.exit(1);
