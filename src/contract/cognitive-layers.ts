// The cognitive stack's layer ids (spec, Cognitive inspection routes, rule 1): the one list every module and route uses.
import { z } from "zod";

export const LAYER_IDS = [
  "prana",
  "indriya",
  "dhyana",
  "manas",
  "ahamkara",
  "sankalpa",
  "buddhi",
  "viveka",
  "sabha",
  "karma",
  "chitta",
  "atman",
  "bhava_monitor",
] as const;

export const LayerId = z.enum(LAYER_IDS).describe("A cognitive layer of the serving path.");
export type LayerId = z.infer<typeof LayerId>;
