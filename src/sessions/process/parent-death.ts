// A child that the kernel kills when its parent dies (issue 39, item 7). Node has no prctl, so util-linux's `setpriv
// --pdeathsig KILL` sets PR_SET_PDEATHSIG and execs node in the same process: a kill -9 of the parent then kills the
// child at once, whether or not its event loop (or its CPU, under SCHED_IDLE) is free to hear the IPC channel close.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** setpriv's path on PATH, or null (macOS, a bare image): then the child's own watch of the channel is all there is. */
export function setprivPath(): string | null {
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, "setpriv");
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** `fork` options that start node through setpriv with the death signal set, when setpriv exists; else node as usual. */
export function dyingWithParent(
  execArgv: readonly string[],
  setpriv = setprivPath(),
): { execPath?: string; execArgv: string[] } {
  if (!setpriv || process.platform !== "linux") return { execArgv: [...execArgv] };
  return { execPath: setpriv, execArgv: ["--pdeathsig", "KILL", process.execPath, ...execArgv] };
}
