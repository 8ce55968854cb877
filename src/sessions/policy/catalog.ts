// The operator's agent catalog (issue 39): what background sessions may execute here, named by the operator in a
// JSON file (SMRITI_AGENT_CATALOG) read once at start. A request names an entry; it never brings an argv or a URL
// unless a free-form rule allows that for its workspace.
import { readFileSync } from "node:fs";
import { z } from "zod";

export const ApprovalFloor = z.enum(["never", "on-write", "always"]);
export type ApprovalFloor = z.infer<typeof ApprovalFloor>;

const Name = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "1-64 letters, digits, '.', '_' or '-'");
const Host = z
  .string()
  .regex(
    /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-fA-F:]+\](:\d{1,5})?$/,
    "a host name or address, with an optional :port",
  );
/** Workspace names an entry serves; "*" is every workspace. */
const Workspaces = z
  .array(z.union([Name, z.literal("*")]))
  .min(1)
  .default(["*"]);
const Seconds = (max: number, def: number) => z.number().int().min(1).max(max).default(def);

/** A value a request may put in the argv: it fills its placeholder as one argument, and must match the pattern whole. */
const Param = z.strictObject({
  pattern: z.string().min(1).refine(isRegExp, "not a valid regular expression"),
  max_length: z.number().int().min(1).max(4_000).default(200),
  default: z.string().optional(),
  description: z.string().max(500).optional(),
});

/** How a command runs: the same knobs for a named agent and a free-form rule. */
const CommandLimits = {
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).default({}),
  timeout_seconds: Seconds(86_400, 600),
  network: z.boolean().default(false).describe("Shares the host's network (and so reaches the service itself)."),
  sandbox: z
    .enum(["bubblewrap", "process"])
    .default("bubblewrap")
    .describe("process: the weaker mode, turned on here by name."),
  read_only_paths: z
    .array(z.string().startsWith("/"))
    .default([])
    .describe("Hidden host paths the command needs, shown read-only."),
  approval_floor: ApprovalFloor.default("on-write"),
  workspaces: Workspaces,
};

const CommandAgent = z
  .strictObject({
    description: z.string().max(500).optional(),
    argv: z.array(z.string().min(1)).min(1),
    params: z.record(Name, Param).default({}),
    ...CommandLimits,
  })
  .superRefine((a, ctx) => {
    const used = new Set(a.argv.flatMap((arg) => [...arg.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)));
    for (const name of used)
      if (!a.params[name])
        ctx.addIssue({ code: "custom", path: ["argv"], message: `placeholder {${name}} names no param` });
    for (const name of Object.keys(a.params))
      if (!used.has(name)) ctx.addIssue({ code: "custom", path: ["params", name], message: "not used in argv" });
    if (a.argv[0]!.includes("{"))
      ctx.addIssue({ code: "custom", path: ["argv", 0], message: "the program itself cannot be a placeholder" });
  });

const OutboundLimits = {
  timeout_seconds: Seconds(86_400, 300),
  max_response_bytes: z.number().int().min(1_024).max(100_000_000).default(1_000_000),
  approval_floor: ApprovalFloor.default("on-write"),
  workspaces: Workspaces,
};

const A2aAgent = z.strictObject({
  description: z.string().max(500).optional(),
  url: z.url({ protocol: /^https?$/ }),
  allowed_hosts: z
    .array(Host)
    .default([])
    .describe("Hosts besides the URL's own that its agent card may send the client to."),
  ...OutboundLimits,
});

/** Lets the named workspaces send a raw argv or agent URL, run under these limits. */
const FreeForm = z.strictObject({
  command: z.boolean().default(false),
  a2a_hosts: z.array(Host).default([]).describe("Hosts a free-form agent_url may name (none: no free-form A2A)."),
  ...CommandLimits,
  max_response_bytes: OutboundLimits.max_response_bytes,
  // Named, never "every workspace" by default: free-form use is the exception a catalog grants.
  workspaces: z.array(z.union([Name, z.literal("*")])).min(1),
});

export const AgentCatalog = z.strictObject({
  approval_floor: z
    .record(z.union([Name, z.literal("*")]), ApprovalFloor)
    .default({})
    .describe("The least approval_mode a workspace's sessions may have."),
  process_sandbox: z
    .boolean()
    .default(false)
    .describe("Lets sessions ask for the weaker process sandbox for policy hooks."),
  command_agents: z.record(Name, CommandAgent).default({}),
  a2a_agents: z.record(Name, A2aAgent).default({}),
  free_form: z.array(FreeForm).default([]),
});
export type AgentCatalog = z.output<typeof AgentCatalog>;
export type CommandAgent = z.output<typeof CommandAgent>;
export type A2aAgent = z.output<typeof A2aAgent>;
export type FreeForm = z.output<typeof FreeForm>;

/** The catalog in `json`; an Error naming the first bad field (start-up stops on it). */
export function parseCatalog(json: unknown, where: string): AgentCatalog {
  const parsed = AgentCatalog.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(`agent catalog ${where}: ${issue.path.join(".") || "(top)"}: ${issue.message}`);
}

/** Reads the catalog file named by SMRITI_AGENT_CATALOG. */
export function loadCatalog(path: string): AgentCatalog {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(`agent catalog ${path}: cannot read it (${err instanceof Error ? err.message : String(err)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`agent catalog ${path}: not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  return parseCatalog(json, path);
}

export const serves = (entry: { workspaces: readonly string[] }, workspace: string) =>
  entry.workspaces.includes("*") || entry.workspaces.includes(workspace);

function isRegExp(source: string): boolean {
  try {
    new RegExp(source, "u");
    return true;
  } catch {
    return false;
  }
}
