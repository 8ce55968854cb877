// npm `prepare` (runs on `npm install`/`npm ci` in a checkout and when installing from git): builds dist/ (the service as
// JavaScript, and `smriti/client` with its types), web/dist/ for the console at /console, and the word-vector cache (so
// the first start does not: issue 41). A production install (--omit=dev) has neither TypeScript nor Vite, so it skips
// those two with a note instead of failing the install. `node scripts/prepare.mjs word-vectors` runs the named steps only.
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
const run = (args) =>
  spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } })
    .status ?? 1;

function dist() {
  const tsc = resolve("typescript/bin/tsc");
  if (!tsc)
    return warn(
      "smriti: typescript is not installed (a --omit=dev install?), so dist/ is not built; `smriti/client` needs it",
    );
  // The client with its declarations, then the whole service as JavaScript (bin/smriti.js runs it while it is fresh).
  if (run([tsc, "-p", "tsconfig.client.json"]) !== 0 || run([tsc, "-p", "tsconfig.build.json"]) !== 0) process.exit(1);
  copyFileSync(
    new URL("src/store/sqlite/checkpoint-worker.js", root),
    new URL("dist/store/sqlite/checkpoint-worker.js", root),
  );
  copyFileSync(new URL("src/threads/entry.js", root), new URL("dist/threads/entry.js", root));
  writeFileSync(new URL("dist/.build-stamp", root), `${new Date().toISOString()}\n`);
}

function consoleBundle() {
  // vite's exports name no bin file; its package.json sits beside bin/.
  const vitePackage = resolve("vite/package.json");
  if (!vitePackage)
    return warn(
      "smriti: vite is not installed (a --omit=dev install?), so the console (web/dist) is not built; /console says so",
    );
  if (
    run([fileURLToPath(new URL("bin/vite.js", pathToFileURL(vitePackage))), "build", "web", "--logLevel", "warn"]) !== 0
  )
    process.exit(1);
}

/** Through tsx, a dependency (bin/smriti.js runs the sources with it); a failure is not the install's: the first start builds it. */
function wordVectors() {
  const script =
    'import("./src/embed/config.ts").then(async (m) => console.log(`smriti: ${await m.prepareEmbedderCache()}`))';
  if (run(["--import", "tsx", "--input-type=module", "-e", script]) !== 0)
    warn("smriti: the word-vector cache was not built; the first start builds it (20-30 s)");
}

const steps = { dist, console: consoleBundle, "word-vectors": wordVectors };
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in steps));
if (unknown.length) {
  warn(`smriti: unknown prepare step ${unknown.join(", ")}; the steps are ${Object.keys(steps).join(", ")}`);
  process.exit(2);
}
for (const [name, step] of Object.entries(steps)) if (asked.length === 0 || asked.includes(name)) step();
