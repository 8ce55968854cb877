// `smriti token create|list|revoke`: manage workspace-bound bearer tokens (works while the server runs).
import type { Command } from "commander";
import { DEFAULT_TOKEN_SCOPES, Scope } from "../contract/scopes.ts";
import { addDataOption, CliError, printJson, withRuntime, type DataOptions } from "./shared.ts";

/** `--scope read,write --scope admin`: each value comma-separated, repeatable; unknown names are refused. */
function scopesOf(values: readonly string[] | undefined): Scope[] {
  if (!values) return [...DEFAULT_TOKEN_SCOPES];
  const names = values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  const parsed = Scope.array().min(1).safeParse(names);
  if (!parsed.success)
    throw new CliError(
      `--scope takes ${Scope.options.join(", ")} (comma-separated or repeated); got '${values.join(",")}'`,
    );
  return [...new Set(parsed.data)];
}

export function registerToken(program: Command): void {
  const token = program.command("token").description("manage bearer tokens");
  addDataOption(token.command("create"))
    .description("issue a token bound to one workspace (printed once; stored hashed)")
    .requiredOption("--workspace <name>", "workspace the token is bound to", "default")
    .option("--actor <id...>", "actor ids allowed in x-svc-actor-id")
    .option("--label <text>", "a note to recognise the token by")
    .option(
      "--scope <scopes...>",
      `what the token may do: ${Scope.options.join(", ")} (comma-separated or repeated; default ${DEFAULT_TOKEN_SCOPES.join(",")})`,
    )
    .option("--json", "print JSON")
    .action(
      async (
        opts: DataOptions & { workspace: string; actor?: string[]; label?: string; scope?: string[]; json?: boolean },
      ) => {
        const scopes = scopesOf(opts.scope);
        await withRuntime(
          opts,
          async (rt) => {
            const issued = await rt.auth.issue({
              workspace: opts.workspace,
              actors: opts.actor ?? [],
              label: opts.label ?? null,
              scopes,
            });
            if (opts.json)
              printJson({
                token: issued.token,
                workspace_id: issued.record.workspaceId,
                workspace: issued.workspaceName,
                token_id: issued.record.id,
                actors: issued.record.actors,
                scopes: issued.record.scopes,
              });
            else
              process.stdout.write(
                `${issued.token}\n(token ${issued.record.id} for workspace '${issued.workspaceName}', scopes ${issued.record.scopes.join(",")}; store it now, it is not shown again)\n`,
              );
          },
          { embedder: null },
          true,
        );
      },
    );
  addDataOption(token.command("list"))
    .description("list tokens (never their secrets)")
    .option("--workspace <name>", "only this workspace")
    .option("--json", "print JSON")
    .action(async (opts: DataOptions & { workspace?: string; json?: boolean }) => {
      await withRuntime(
        opts,
        async (rt) => {
          const ws = opts.workspace ? await rt.store.workspaces.findWorkspace(opts.workspace) : undefined;
          if (opts.workspace && !ws) throw new CliError(`no workspace '${opts.workspace}'`);
          const names = new Map((await rt.store.workspaces.listWorkspaces()).map((w) => [w.id, w.name]));
          const rows = (await rt.store.workspaces.listTokens(ws?.id)).map((t) => ({
            token_id: t.id,
            workspace: names.get(t.workspaceId) ?? t.workspaceId,
            actors: t.actors,
            scopes: t.scopes,
            label: t.label,
            created_at: new Date(t.createdAt).toISOString(),
            revoked_at: t.revokedAt === null ? null : new Date(t.revokedAt).toISOString(),
          }));
          if (opts.json) printJson(rows);
          else
            for (const r of rows)
              process.stdout.write(
                `${r.token_id}\t${r.workspace}\t${r.revoked_at ? "revoked" : "active"}\t${r.scopes.join(",")}\t${r.actors.join(",") || "-"}\t${r.label ?? ""}\n`,
              );
        },
        { embedder: null },
      );
    });
  addDataOption(token.command("revoke"))
    .description("revoke a token by its id (tok_...)")
    .argument("<token_id>")
    .action(async (id: string, opts: DataOptions) => {
      await withRuntime(
        opts,
        async (rt) => {
          if (!(await rt.auth.revoke(id))) throw new CliError(`no active token '${id}'`);
          process.stdout.write(`revoked ${id}\n`);
        },
        { embedder: null },
      );
    });
}
