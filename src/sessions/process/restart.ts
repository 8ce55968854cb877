// When a child process of `smriti serve` (a worker of a group, the session process) that died is started again, and how
// long one that was told to stop may take before it is killed.

/** A process that died is replaced after 1 s, doubling with each death in a row up to 60 s (a crash loop does not spin). */
const RESTART_MS = 1_000;
const RESTART_MAX_MS = 60_000;

/** How long to wait before replacing a process that died, the `n`th death in a row (1 s, doubling up to 60 s). */
export const restartDelayMs = (n: number) => Math.min(RESTART_MAX_MS, RESTART_MS * 2 ** Math.max(0, n - 1));
/** Workers (and a session process) still running this long after the stop signal are killed. */
export const STOP_GRACE_MS = 15_000;
