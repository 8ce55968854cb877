// The service as `npm ci` leaves it: bin/smriti.js running the compiled JavaScript in dist/. The bench runs from the
// TypeScript sources, so what it times in fresh processes (the CLI, a served process) is built first if stale.
import { spawnSync } from "node:child_process";
import { ROOT } from "../../test/cli/cli-helpers.ts";

/** Builds dist/ as `npm ci` does when any source is newer than its stamp; true when it did. */
export function ensureBuilt(): boolean {
  // find fails when there is no stamp yet; otherwise it prints the first source newer than it, if any.
  const newer = spawnSync(
    "find",
    [`${ROOT}/src`, "-newer", `${ROOT}/dist/.build-stamp`, "-type", "f", "-print", "-quit"],
    { encoding: "utf8" },
  );
  if (newer.status === 0 && newer.stdout.trim() === "") return false;
  const build = spawnSync(process.execPath, [`${ROOT}/scripts/prepare.mjs`], { cwd: ROOT, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`bench: building dist/ failed:\n${build.stdout}${build.stderr}`);
  return true;
}
