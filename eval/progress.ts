// Progress lines on stderr (stdout carries the tables).
const started = performance.now();

export function progress(msg: string): void {
  process.stderr.write(`[eval ${((performance.now() - started) / 1000).toFixed(1).padStart(6)}s] ${msg}\n`);
}

/** Rewrites one status line in place when stderr is a terminal, else prints every `every`-th step. */
export function ticker(
  label: string,
  total: number,
  every = Math.max(1, Math.ceil(total / 4)),
): (done: number) => void {
  return (done) => {
    if (process.stderr.isTTY) {
      process.stderr.write(`\r  ${label} ${done}/${total}${done === total ? "\n" : ""}`);
    } else if (done % every === 0 || done === total) progress(`  ${label} ${done}/${total}`);
  };
}
