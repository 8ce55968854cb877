// GET /v1/cognitive/uplift: what each cognitive layer and the automatic tuner contributed (HTTP only; MCP clients read /metrics).
import { z } from "zod";
import { parseDuration } from "./duration.ts";
import { LayerId } from "./cognitive-layers.ts";

export const UpliftRequest = z
  .strictObject({
    since: z
      .string()
      .max(20)
      .refine((s) => parseDuration(s) !== null, "a duration such as 30m, 12h, 7d or 2w")
      .optional()
      .describe(
        "Only what happened in this window (counters are kept per hour, so the window starts on an hour). Omit for everything recorded.",
      ),
  })
  .describe("What each layer of the cognitive stack and the tuner contributed.");
export type UpliftRequest = z.input<typeof UpliftRequest>;

const Counters = z.record(z.string(), z.number()).describe("Counter name -> how many times the layer did it.");

export const UpliftResponse = z.object({
  since: z.iso.datetime().nullable().describe("Start of the window (null: everything recorded)."),
  layers: z.array(
    z.object({
      id: LayerId,
      job: z.string(),
      enabled: z.boolean().describe("Whether the layer runs by default in this service."),
      counters: Counters.describe("Totals in the window for this workspace."),
      uplift: z
        .record(z.string(), z.number())
        .nullable()
        .describe(
          "Metric with the layer on minus off, from the latest ablation run in the window (`smriti cognitive ablate` or `npm run eval -- ablation`); null when none ran.",
        ),
      stress_uplift: z
        .record(z.string(), z.number())
        .nullable()
        .describe(
          "'<perturbation> <metric>' -> shipped defaults minus this layer off, on real data perturbed for the layer's job, from the latest stress run in the window (`npm run eval -- stress`); null when none ran or it has no case for the layer.",
        ),
    }),
  ),
  by_workspace: z
    .record(z.string(), z.record(z.string(), Counters))
    .describe("Workspace name -> layer -> counters. A token sees its own workspace only."),
  tuner: z.object({
    tried: z.number().int(),
    kept: z.number().int(),
    decisions: z
      .array(z.record(z.string(), z.unknown()))
      .describe(
        "Each change the tuner tried, with held-in (and held-out) figures before and after and whether it was kept.",
      ),
  }),
  ablation: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe("The latest ablation run in the window: every metric with all layers on and with each layer off."),
  stress: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      "The latest stress run in the window: per perturbation, its layer, metric, the unperturbed figure, shipped defaults (on) and that layer off.",
    ),
});
export type UpliftResponse = z.infer<typeof UpliftResponse>;
