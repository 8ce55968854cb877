// chrono-node, loaded on first use: its locales add about 0.2 s of start-up that most commands never need.
import { createRequire } from "node:module";
import type * as Chrono from "chrono-node";

let loaded: typeof Chrono | undefined;

/** The chrono-node module (its CommonJS build, so a synchronous caller can load it). */
export function chrono(): typeof Chrono {
  return (loaded ??= createRequire(import.meta.url)("chrono-node") as typeof Chrono);
}
