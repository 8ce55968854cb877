// chrono-node's English parser, loaded once on first use (or by a service that warms it, so no request pays for it).
import { createRequire } from "node:module";
import type * as Chrono from "chrono-node";

/** The parts of chrono-node used here; its English locale alone loads in a third of the time of the whole package. */
type English = Pick<typeof Chrono, "casual">;
let loaded: English | undefined;

/** The English chrono-node module (its CommonJS build, so a synchronous caller can load it). */
export function chrono(): English {
  return (loaded ??= createRequire(import.meta.url)("chrono-node/en") as English);
}
