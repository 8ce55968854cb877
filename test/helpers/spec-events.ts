// The spec's "Session and agent events" table as tests check the registry and the runtime against it.

// The spec's table, row by row: type, persisted, tier (the cognition summary row is named "the service" there).
export const SPEC: [string, boolean, "default" | "debug"][] = [
  ["session", false, "default"],
  ["session_state", true, "default"],
  ["session_checkpoint", true, "default"],
  ["policy_decision", true, "debug"],
  ["hook_event", true, "debug"],
  ["sandbox_notice", true, "debug"],
  ["transport_diagnostic", true, "debug"],
  ["subagent_event", true, "debug"],
  ["turn_start", true, "debug"],
  ["turn_start_tools", true, "debug"],
  ["token", true, "default"],
  ["response", true, "default"],
  ["thinking", true, "default"],
  ["reflection", true, "default"],
  ["tool_call", true, "default"],
  ["tool_result", true, "default"],
  ["tool_outcome", true, "default"],
  ["tool_batch", true, "debug"],
  ["tool_selected", true, "debug"],
  ["tool_validation_error", true, "debug"],
  ["context_warning", true, "default"],
  ["context_compacted", true, "default"],
  ["step_progress", true, "default"],
  ["usage", true, "debug"],
  ["retrieval", true, "default"],
  ["cognition", true, "default"],
  ["approval_required", true, "default"],
  ["approval_applied", true, "default"],
  ["turn_end", true, "default"],
  ["completed", true, "default"],
  ["error", true, "default"],
  ["health_snapshot", false, "default"],
];

export const specRow = (type: string) => SPEC.find(([t]) => t === type);
