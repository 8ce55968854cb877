// npm `prepare` (runs on `npm install`/`npm ci` in a checkout and when installing from git): builds dist/ for `smriti/client`.
// A production install (--omit=dev) has no TypeScript and needs no dist/, so it skips with a note instead of failing the install.
import { spawnSync } from "node:child_process";
import { warn } from "node:console";
import { createRequire } from "node:module";
import process from "node:process";
import { URL } from "node:url";

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
} catch {
  warn("smriti: typescript is not installed (a --omit=dev install?), so dist/ is not built; `smriti/client` needs it");
  process.exit(0);
}
const root = new URL("..", import.meta.url);
const built = spawnSync(process.execPath, [tsc, "-p", "tsconfig.client.json"], { cwd: root, stdio: "inherit" });
process.exit(built.status ?? 1);
