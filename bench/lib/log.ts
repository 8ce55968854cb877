// Progress lines on stderr, so stdout keeps only the results table.
const started = performance.now();

export function progress(msg: string): void {
  process.stderr.write(`[bench +${((performance.now() - started) / 1000).toFixed(1)}s] ${msg}\n`);
}
