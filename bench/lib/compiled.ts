// The service as `npm ci` leaves it: bin/smriti.js running the compiled JavaScript in dist/. The bench runs from the
// TypeScript sources, so what it times in fresh processes (the CLI, a served process) uses this, built first if stale.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const SMRITI_BIN = `${ROOT}bin/smriti.js`;

/** Builds dist/ as `npm ci` does when any source is newer than its stamp; true when it did. */
export function ensureBuilt(): boolean {
  // find fails when there is no stamp yet; otherwise it prints the first source newer than it, if any.
  const newer = spawnSync("find", [`${ROOT}src`, "-newer", `${ROOT}dist/.build-stamp`, "-type", "f", "-print", "-quit"], { encoding: "utf8" });
  if (newer.status === 0 && newer.stdout.trim() === "") return false;
  const build = spawnSync(process.execPath, [`${ROOT}scripts/prepare.mjs`], { cwd: ROOT, stdio: "ignore" });
  if (build.status !== 0) throw new Error("bench: building dist/ failed");
  return true;
}

/** Runs `smriti <args>` to its end on `dataDir`; its stdout, or an error with its stderr. */
export function runSmriti(args: readonly string[], dataDir: string, env: Record<string, string> = {}): string {
  const run = spawnSync(process.execPath, [SMRITI_BIN, ...args], { env: { ...process.env, ...env, SMRITI_DATA_DIR: dataDir }, encoding: "utf8" });
  if (run.status !== 0 || run.stdout.trim() === "") throw new Error(`bench: smriti ${args.join(" ")} failed (${run.status}): ${run.stderr}`);
  return run.stdout;
}
