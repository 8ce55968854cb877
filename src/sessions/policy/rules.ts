// What a session may execute, decided from the operator's catalog: the plan a start request resolves to (a named entry,
// or a raw argv or URL where a free-form rule allows it), and the approval floor it runs under.
import { AppError } from "../../contract/errors.ts";
import type { Isolation, Sandbox, SandboxMode } from "./sandbox.ts";
import { serves, type A2aAgent, type AgentCatalog, type ApprovalFloor, type CommandAgent } from "./catalog.ts";

/** How a command runs, whoever named it. */
export type CommandLimits = Pick<
  CommandAgent,
  "env" | "timeout_seconds" | "network" | "sandbox" | "read_only_paths" | "approval_floor"
>;
/** How far a call to a remote agent may go. */
export interface OutboundLimits {
  hosts: string[];
  timeout_seconds: number;
  max_response_bytes: number;
  approval_floor: ApprovalFloor;
}

/** What a start request (or a run, from its resume context) asks to execute. */
export interface ExecutionRequest {
  engine: "native" | "command" | "a2a";
  agent?: string | undefined;
  agent_params?: Record<string, string> | undefined;
  command?: string[] | undefined;
  agent_url?: string | undefined;
}

export type ExecutionPlan =
  | { engine: "native" }
  | { engine: "command"; agent: string | null; argv: string[]; limits: CommandLimits }
  | { engine: "a2a"; agent: string | null; url: string; limits: OutboundLimits };

const ORDER: readonly ApprovalFloor[] = ["never", "on-write", "always"];
export const stricter = (a: ApprovalFloor, b: ApprovalFloor): ApprovalFloor =>
  ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b;

export class ExecutionRules {
  constructor(
    private readonly catalog: AgentCatalog | null,
    /** SMRITI_APPROVAL_FLOOR: the least approval any session has, catalog or not. */
    private readonly serverFloor: ApprovalFloor = "never",
  ) {}

  get hasCatalog(): boolean {
    return this.catalog !== null;
  }

  /** Whether sessions may ask for the weaker process sandbox for their hooks (turned on in the catalog by name). */
  get processSandbox(): boolean {
    return this.catalog?.process_sandbox ?? false;
  }

  /** The floor for a workspace's sessions, raised further by what a plan runs. */
  floor(workspace: string, plan: ExecutionPlan = { engine: "native" }): { floor: ApprovalFloor; source: string } {
    const floors = this.catalog?.approval_floor ?? {};
    const ws = floors[workspace] ?? floors["*"];
    let out = { floor: this.serverFloor, source: "the server (SMRITI_APPROVAL_FLOOR)" };
    if (ws && stricter(ws, out.floor) !== out.floor)
      out = { floor: ws, source: `the catalog's floor for workspace '${workspace}'` };
    if (plan.engine !== "native" && stricter(plan.limits.approval_floor, out.floor) !== out.floor)
      out = {
        floor: plan.limits.approval_floor,
        source: plan.agent ? `catalog agent '${plan.agent}'` : "the catalog's free-form rule",
      };
    return out;
  }

  /** The plan a start request resolves to; 400s with stable codes for what the operator has not allowed. */
  plan(workspace: string, body: ExecutionRequest): ExecutionPlan {
    if (body.engine === "native") return { engine: "native" };
    const catalog = this.catalog;
    if (!catalog)
      throw new AppError(
        "engine_disabled",
        `engine '${body.engine}' is off: the operator has no agent catalog (SMRITI_AGENT_CATALOG)`,
      );
    return body.engine === "command" ? this.command(catalog, workspace, body) : this.a2a(catalog, workspace, body);
  }

  private command(catalog: AgentCatalog, workspace: string, body: ExecutionRequest): ExecutionPlan {
    if (body.agent !== undefined) {
      const entry = named(catalog.command_agents, body.agent, workspace, "command");
      return { engine: "command", agent: body.agent, argv: fill(entry, body.agent_params ?? {}), limits: entry };
    }
    const rule = catalog.free_form.find((r) => r.command && serves(r, workspace));
    if (!rule)
      throw new AppError(
        "catalog_entry_required",
        "name a command agent of the catalog (agent); a raw command is not allowed for this workspace",
      );
    return { engine: "command", agent: null, argv: body.command!, limits: rule };
  }

  private a2a(catalog: AgentCatalog, workspace: string, body: ExecutionRequest): ExecutionPlan {
    if (body.agent !== undefined) {
      const entry: A2aAgent = named(catalog.a2a_agents, body.agent, workspace, "a2a");
      return {
        engine: "a2a",
        agent: body.agent,
        url: entry.url,
        limits: { ...entry, hosts: [new URL(entry.url).host, ...entry.allowed_hosts] },
      };
    }
    const host = new URL(body.agent_url!).host;
    const rules = catalog.free_form.filter((r) => r.a2a_hosts.length > 0 && serves(r, workspace));
    if (!rules.length)
      throw new AppError(
        "catalog_entry_required",
        "name an A2A agent of the catalog (agent); a raw agent_url is not allowed for this workspace",
      );
    const rule = rules.find((r) => r.a2a_hosts.includes(host));
    if (!rule)
      throw new AppError(
        "host_not_allowed",
        `agent_url's host '${host}' is not one the catalog allows for this workspace`,
      );
    return { engine: "a2a", agent: null, url: body.agent_url!, limits: { ...rule, hosts: rule.a2a_hosts } };
  }
}

function named<T extends { workspaces: string[] }>(
  entries: Record<string, T>,
  name: string,
  workspace: string,
  engine: string,
): T {
  const entry = Object.hasOwn(entries, name) ? entries[name] : undefined;
  // Another workspace's entry reads as unknown: the catalog's names are not a caller's to enumerate.
  if (!entry || !serves(entry, workspace))
    throw new AppError("unknown_agent", `no ${engine} agent '${name}' in the catalog for this workspace`);
  return entry;
}

/** The entry's argv with each {param} replaced by the request's value (or its default), checked against its pattern. */
function fill(entry: CommandAgent, given: Record<string, string>): string[] {
  for (const key of Object.keys(given))
    if (!Object.hasOwn(entry.params, key))
      throw new AppError("invalid_request", `agent_params.${key}: the agent takes no such param`);
  const values = new Map<string, string>();
  for (const [name, p] of Object.entries(entry.params)) {
    const value = given[name] ?? p.default;
    if (value === undefined) throw new AppError("invalid_request", `agent_params.${name} is required`);
    if (value.length > p.max_length || !new RegExp(`^(?:${p.pattern})$`, "u").test(value))
      throw new AppError("invalid_request", `agent_params.${name} does not match the agent's pattern`, {
        pattern: p.pattern,
        max_length: p.max_length,
      });
    values.set(name, value);
  }
  return entry.argv.map((arg) => arg.replace(/\{(\w+)\}/g, (_, name: string) => values.get(name)!));
}

/** What the session runtime consults before it executes anything: the operator's rules and the host's isolation. */
export interface Execution {
  rules: ExecutionRules;
  isolation: Isolation;
}

/**
 * The sandbox a session's commands and hooks run under: the stronger of what the request asks and what its catalog
 * entry requires; the weaker process mode only where the entry or the catalog turned it on.
 */
export function sandboxFor(execution: Execution, requested: SandboxMode, plan: ExecutionPlan, hooks: boolean): Sandbox {
  if (plan.engine === "a2a")
    return {
      requested,
      resolved: "remote",
      isolation: `none here: the task runs on the remote agent at ${plan.url}`,
      reason: "a2a bridge",
    };
  if (plan.engine === "command") {
    const entry = plan.limits.sandbox;
    const asked =
      requested === "auto" ? entry : requested === "process" && entry === "bubblewrap" ? "bubblewrap" : requested;
    return execution.isolation.resolve(asked, { allowProcess: entry === "process", needed: true });
  }
  return execution.isolation.resolve(requested, { allowProcess: execution.rules.processSandbox, needed: hooks });
}
