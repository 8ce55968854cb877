// A session's health (SPEC "Health snapshot and health policy"): the snapshot an operator watches and the budgets that act on it.
import { z } from "zod";

const limit = (what: string) => z.number().min(0).describe(what);

/** The operator budgets the spec lists; a crossed one trips policy.health.action. Unknown names are refused. */
export const HealthBudgets = z.strictObject({
  min_score: z.number().min(0).max(1).optional().describe("Trips when the health score falls below this."),
  max_runtime_minutes: limit("Minutes spent running (paused and waiting time not counted).").optional(),
  max_total_tokens: z.number().int().min(0).optional().describe("Input plus output tokens of every step."),
  max_cost_usd: limit("What the provider's usage cost (0 for the extractive agent).").optional(),
  max_context_usage_pct: z.number().min(0).max(100).optional().describe("The prompt's share of the context budget."),
  max_failed_tool_calls: z.number().int().min(0).optional().describe("Tool outcomes error or timeout."),
  max_loop_warnings: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Tool calls repeating an earlier call's name and arguments."),
  max_repeated_plan_events: z.number().int().min(0).optional().describe("Plans (thinking) stated again word for word."),
  max_tool_latency_ms: z.number().int().min(0).optional().describe("The slowest tool call."),
  max_events_without_evidence: z.number().int().min(0).optional().describe("Responses that cite nothing."),
});
export type HealthBudgets = z.infer<typeof HealthBudgets>;
export type BudgetName = Exclude<keyof HealthBudgets, never>;

/** What applies when the start request names no budget (docs/sessions.md "Health policy"). */
export const DEFAULT_BUDGETS = {
  min_score: 0.2,
  max_runtime_minutes: 60,
  max_failed_tool_calls: 10,
  max_loop_warnings: 5,
  max_repeated_plan_events: 5,
} as const satisfies HealthBudgets;

export const HealthPolicy = z.strictObject({
  health: HealthBudgets.extend({
    action: z
      .enum(["approval", "pause"])
      .default("pause")
      .describe("approval: ask an operator (the session waits); pause: pause it."),
  }).default({ action: "pause" }),
  enforcement: z
    .strictObject({
      mode: z
        .enum(["enforce", "observe"])
        .default("enforce")
        .describe("observe: flag crossed budgets in health, never act."),
    })
    .default({ mode: "enforce" }),
});
export type HealthPolicy = z.output<typeof HealthPolicy>;

const Budget = z.object({
  name: z.string(),
  limit: z.number(),
  value: z.number(),
  crossed: z.boolean(),
  waived: z.boolean(),
});
const Provenance = z.object({ chunk_hash: z.string(), source_path: z.string(), times_cited: z.number().int() });
const AuditRow = z.object({ event_id: z.string(), at: z.iso.datetime(), type: z.string(), summary: z.string() });

export const HealthSnapshot = z.object({
  session_id: z.string(),
  status: z.string(),
  score: z.number().min(0).max(1),
  flags: z.object({ stuck: z.boolean(), waiting: z.boolean(), degraded: z.boolean(), budget: z.boolean() }),
  budgets: z.array(Budget).describe("Each budget in force with what the session used; pressure is value / limit."),
  memory_provenance: z.array(Provenance).describe("The evidence the session's answers relied on."),
  audit: z
    .array(AuditRow)
    .describe("State changes, approvals, policy decisions and errors, newest last (the last 20)."),
  recovery_hints: z.array(z.string()),
  through_event_id: z.string().nullable().describe("The last event the snapshot reflects."),
});
export type HealthSnapshot = z.infer<typeof HealthSnapshot>;
