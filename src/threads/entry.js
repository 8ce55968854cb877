// Worker thread entry for the thread pools (pool.ts). Plain JavaScript on purpose: a worker does not inherit the
// tsx loader, so when the service runs from TypeScript sources (tests, `npm run bench`) it registers tsx before loading
// the thread's module.
import { workerData } from "node:worker_threads";

if (workerData.typescript) (await import("tsx/esm/api")).register();
await import(workerData.module);
