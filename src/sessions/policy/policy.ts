// Who may run which tool: the permission mode, the session's policy file, then the approval mode (docs/sessions.md "Session policy").
import { readFile } from "node:fs/promises";
import { resolve, sep } from "node:path";
import { z } from "zod";
import { AppError } from "../../contract/errors.ts";

const Rule = z.enum(["allow", "deny", "ask"]);

export const PolicyFile = z.strictObject({
  /** Per tool name; "*" for every tool not named. */
  tools: z.record(z.string(), Rule).default({}),
  hooks: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(64),
        phase: z.enum(["before", "after"]),
        /** Tool names, or "*" for all. */
        tools: z.union([z.literal("*"), z.array(z.string()).min(1)]),
        /** argv: run with the call as JSON on stdin; exit 0 lets it through (docs/sessions.md "Session policy"). */
        command: z.array(z.string().min(1)).min(1),
      }),
    )
    .default([]),
});
export type PolicyFile = z.infer<typeof PolicyFile>;
export type Hook = PolicyFile["hooks"][number];

/** The agent_profile of a delegated sub-agent's session: no operator watches it, so what would ask is denied. */
export const SUBAGENT_PROFILE = "subagent";

export interface PolicyDecision {
  outcome: "allow" | "deny" | "ask";
  reason: string;
  source: "permission_mode" | "policy" | "approval_mode" | "default";
}

export interface Modes {
  permission_mode: "read-only" | "workspace-write" | "full";
  approval_mode: "never" | "on-write" | "always";
  agent_profile: string;
}

export function decide(
  tool: { name: string; writes: boolean },
  modes: Modes,
  policy: PolicyFile | null,
): PolicyDecision {
  const d = rule(tool, modes, policy);
  return d.outcome === "ask" && modes.agent_profile === SUBAGENT_PROFILE
    ? { outcome: "deny", reason: `${d.reason}; a sub-agent has no operator to ask`, source: d.source }
    : d;
}

function rule(tool: { name: string; writes: boolean }, modes: Modes, policy: PolicyFile | null): PolicyDecision {
  if (tool.writes && modes.permission_mode === "read-only")
    return { outcome: "deny", reason: `${tool.name} writes and the session is read-only`, source: "permission_mode" };
  const rule = policy?.tools[tool.name] ?? policy?.tools["*"];
  if (rule === "deny") return { outcome: "deny", reason: `the policy denies ${tool.name}`, source: "policy" };
  if (rule === "ask")
    return { outcome: "ask", reason: `the policy asks an operator before ${tool.name}`, source: "policy" };
  if (modes.approval_mode === "always")
    return {
      outcome: "ask",
      reason: "approval_mode always: every tool call waits for an operator",
      source: "approval_mode",
    };
  if (modes.approval_mode === "on-write" && tool.writes)
    return { outcome: "ask", reason: `${tool.name} writes; approval_mode on-write`, source: "approval_mode" };
  return {
    outcome: "allow",
    reason: rule === "allow" ? `the policy allows ${tool.name}` : "no rule stops it",
    source: rule === "allow" ? "policy" : "default",
  };
}

export const hooksFor = (policy: PolicyFile | null, phase: Hook["phase"], tool: string) =>
  (policy?.hooks ?? []).filter((h) => h.phase === phase && (h.tools === "*" || h.tools.includes(tool)));

/** Where sessions find a policy by the name in their `policy_path`. */
export type PolicySource = (name: string) => Promise<PolicyFile>;

/**
 * Policies given in-process by name (a local client's catalog) first, then files in the policy directory. A catalog
 * entry that is not a valid policy is an error here, at build time, not at a session's first tool call.
 */
export function policySource(dir: string, catalog: Readonly<Record<string, unknown>> = {}): PolicySource {
  const named = new Map<string, PolicyFile>();
  for (const [name, json] of Object.entries(catalog)) {
    const parsed = PolicyFile.safeParse(json);
    if (!parsed.success)
      throw new Error(
        `policy catalog entry '${name}': ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`,
      );
    named.set(name, parsed.data);
  }
  return async (name) => named.get(name) ?? loadPolicy(dir, name);
}

/** Reads a policy file by its name under the policy directory; a name that leaves it, a missing file or a bad one is a 400. */
async function loadPolicy(dir: string, name: string): Promise<PolicyFile> {
  const root = resolve(dir);
  const file = resolve(root, name);
  if (!file.startsWith(root + sep))
    throw new AppError("invalid_request", `policy_path '${name}' must name a file inside the policy directory`);
  const text = await readFile(file, "utf8").catch(() => {
    throw new AppError("invalid_request", `no policy file '${name}' in the policy directory (SMRITI_POLICY_DIR)`);
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError("invalid_request", `policy file '${name}' is not JSON`);
  }
  const parsed = PolicyFile.safeParse(json);
  if (!parsed.success)
    throw new AppError(
      "invalid_request",
      `policy file '${name}': ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`,
    );
  return parsed.data;
}
