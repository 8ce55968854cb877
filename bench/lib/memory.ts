// Process memory in MB, after a full GC when the process was started with --expose-gc.

export interface MemorySnapshot {
  rssMB: number;
  heapUsedMB: number;
  heapTotalMB: number;
  externalMB: number;
  arrayBuffersMB: number;
  gc: boolean;
}

export function collectGarbage(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return false;
  gc();
  gc();
  return true;
}

export function memorySnapshot(): MemorySnapshot {
  const gc = collectGarbage();
  const m = process.memoryUsage();
  const mb = (x: number) => Math.round((x / 2 ** 20) * 10) / 10;
  return {
    rssMB: mb(m.rss),
    heapUsedMB: mb(m.heapUsed),
    heapTotalMB: mb(m.heapTotal),
    externalMB: mb(m.external),
    arrayBuffersMB: mb(m.arrayBuffers),
    gc,
  };
}
