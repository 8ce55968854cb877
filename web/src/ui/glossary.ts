// One line for every layer, stage, tool, checkpoint and budget name the console shows (issue 41: the Sanskrit names are
// opaque). A test checks it covers the contract's lists and the tools a session offers.
import { toolSummaries } from "../../../src/client/index.ts";

/** The cognitive stack's layers (SPEC "Cognitive inspection routes" rule 1), in the spec's order. */
export const LAYERS: Record<string, string> = {
  prana: "prana (energy): the compute budget, so a long query or a slow layer cannot blow the latency target",
  indriya:
    "indriya (the senses): normalises the input, so invisible characters and odd Unicode cannot split or hide words",
  dhyana: "dhyana (focus): orders a pack for relevant and different evidence (maximal marginal relevance)",
  manas: "manas (the mind): query understanding; each content word brings its nearest words as weighted extra terms",
  ahamkara: "ahamkara (the self): who is asking; 'I', 'my', 'me' in a query mean the calling actor",
  sankalpa: "sankalpa (intention): a query about what is left to do gets evidence holding open loops first",
  buddhi: "buddhi (judgement): answer or abstain; an answer under the confidence threshold is withheld",
  viveka: "viveka (discernment): near-duplicates of better evidence and injection-like text sink",
  sabha: "sabha (the council): runs several retrievers for a hybrid query and fuses their signals",
  karma: "karma (action and its fruit): chunks reported as used rise, chunks reported as unhelpful sink",
  chitta: "chitta (memory impressions): favours recent chunks and chunks recalled often before",
  atman: "atman (the invariant self): the contract's invariants hold whatever the other layers did",
  bhava_monitor: "bhava_monitor (feeling): an urgent or distressed query gets evidence about incidents first",
};

/** The knowledge lifecycle's stages. */
export const STAGES: Record<string, string> = {
  shravan: "shravan (hearing): a capture, knowledge taken in with its sources, not yet reflected on",
  manan:
    "manan (reflection): a capture thought through: its claims, questions, counterpoints and principles, each cited",
  nididhyasan: "nididhyasan (practice): a reflection turned into a habit, task, rule, checklist, project or principle",
};

/** The tools a session's agent may call: the memory operations (their routes' summaries), delegation and the file tools. */
export const TOOLS: Record<string, string> = {
  ...toolSummaries,
  delegate: "hands one sub-question to a read-only sub-agent session, which answers it with citations",
  file_list: "lists the files in the session's task workspace",
  file_read: "reads a file from the session's task workspace",
  file_write: "writes a file in the session's task workspace; it becomes an artifact",
};

/** Background checkpoint types. */
export const CHECKPOINTS: Record<string, string> = {
  task_graph: "the plan of tasks a write-capable session works through",
  task_workspace: "the isolated folder the session's file tools work in",
  run_record: "a run started: which engine, which attempt, which process",
  step: "a step finished; a resume point",
  final_output: "the session's answer, kept as an artifact",
  paused: "an operator paused the session",
  health_pause: "a health budget was crossed and the policy paused the session",
  recovery: "a run was picked up again after its process died",
  cancelled: "an operator cancelled the session",
  expired: "the session's expires_at passed before it could run",
  resume_seed: "where a branched session starts: the parent's conversation up to the branch point",
  remote_task: "the task handed to a remote A2A agent",
};

/** Health budgets: what each measures and which way is bad. */
export const BUDGETS: Record<string, string> = {
  min_score: "a floor: trips when the health score falls below it (the bar shows the score, the tick the floor)",
  max_runtime_minutes: "minutes spent running (paused and waiting time not counted)",
  max_total_tokens: "input plus output tokens of every step",
  max_cost_usd: "what the provider's usage cost (0 for the extractive agent)",
  max_context_usage_pct: "the prompt's share of the context budget, in percent",
  max_failed_tool_calls: "tool calls that ended in error or timeout",
  max_loop_warnings: "tool calls repeating an earlier call's name and arguments",
  max_repeated_plan_events: "plans stated again word for word",
  max_tool_latency_ms: "the slowest tool call, in milliseconds",
  max_events_without_evidence: "answers that cite nothing",
};

const ALL: Record<string, string> = { ...LAYERS, ...STAGES, ...TOOLS, ...CHECKPOINTS, ...BUDGETS };

/** The one-line description of a name the console shows; undefined for one it does not know. */
export const describeTerm = (name: string): string | undefined => ALL[name];
