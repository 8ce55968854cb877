// chrono-node's English parser, loaded once on first use (or by a service that warms it, so no request pays for it),
// with the readings it lacks added as parsers of its own (relative-names.ts).
import { createRequire } from "node:module";
import type * as Chrono from "chrono-node";
import { relativeMonths, weekdayAliases } from "./relative-names.ts";

/** The parts of chrono-node used here; its English locale alone loads in a third of the time of the whole package. */
type English = Pick<typeof Chrono, "casual">;
let loaded: English | undefined;

/** The English chrono-node module (its CommonJS build, so a synchronous caller can load it), configured. */
export function chrono(): English {
  return (loaded ??= configured(createRequire(import.meta.url)("chrono-node/en") as English));
}

/** The noun "march" in lower case, alone or after a relative word ("the last march of the season"), is no month. */
const MARCH_NOUN = /^(?:(?:last|past|next|this)\s+)?march(?:\s+of)?$/;

function configured(en: English): English {
  const casual = en.casual.clone();
  casual.parsers.push(weekdayAliases(en.casual), relativeMonths());
  casual.refiners.push({ refine: (_context, results) => results.filter((r) => !MARCH_NOUN.test(r.text)) });
  return { casual };
}
