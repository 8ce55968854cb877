// A process that only burns CPU, for a control: what the same load costs a recall when it does nothing with the service.
import { Worker } from "node:worker_threads";
import type { SpinnerInit } from "./protocol.ts";
import { reply } from "./ipc.ts";

/** Spin and rest periods are this long in sum (ms): fine enough that a recall meets the average share. */
const PERIOD_MS = 10;

/** Spins `share` of every period on this thread, forever. */
function spin(share: number): void {
  const busy = share * PERIOD_MS;
  const tick = () => {
    const t0 = performance.now();
    while (performance.now() - t0 < busy);
    setTimeout(tick, PERIOD_MS - busy);
  };
  tick();
}

process.once("message", (m: SpinnerInit) => {
  const whole = Math.floor(m.cores);
  // One thread per whole core (a worker runs this same loop with share 1); the last thread spins the fraction.
  for (let i = 0; i < whole; i++) new Worker("for (;;) {}", { eval: true });
  if (m.cores > whole) spin(m.cores - whole);
  void reply({ type: "ready" });
});
