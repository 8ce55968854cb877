// Workspace-bound bearer tokens: issue (stored hashed), authenticate, check the actor header and the token's scopes.
import { randomBytes, randomUUID } from "node:crypto";
import type { WhoAmI } from "../contract/auth.ts";
import { AppError } from "../contract/errors.ts";
import { allows, DEFAULT_TOKEN_SCOPES, type RouteScope, type Scope } from "../contract/scopes.ts";
import { sha256Hex } from "../domain/text/hash.ts";
import type { TokenRecord, WorkspaceStore } from "../ports/workspaces.ts";
import type { CallContext } from "../ports/call-context.ts";
import { TokenCache, type StoredToken } from "./token-cache.ts";

export const DEFAULT_WORKSPACE = "default";
const TOKEN_PREFIX = "smr_";

/** Throws 403 insufficient_scope unless the caller's token carries `scope` (the route loop, MCP tools and session starts call it). */
export function requireScope(call: Pick<CallContext, "scopes">, scope: RouteScope): void {
  if (!allows(call.scopes, scope))
    throw new AppError(
      "insufficient_scope",
      `this token lacks the '${scope}' scope (smriti token create --scope ...)`,
      { required: scope, granted: call.scopes },
    );
}

export interface IssuedToken {
  token: string;
  record: TokenRecord;
  workspaceName: string;
}

export class AuthService {
  private readonly tokens: TokenCache;

  /** `tokenRecheckMs`: how long a token's stored record is trusted (token-cache.ts; 0 reads the store every request). */
  constructor(
    private readonly store: WorkspaceStore,
    private readonly opts: { multiTenant: boolean; now: () => number; tokenRecheckMs?: number },
  ) {
    this.tokens = new TokenCache(opts.tokenRecheckMs);
  }

  /** Creates the workspace if allowed and a token bound to it; the secret is returned once and stored only as a hash. */
  /** `scopes` defaults to read and write (README "Tokens and scopes"). */
  async issue(input: {
    workspace: string;
    actors?: readonly string[];
    label?: string | null;
    scopes?: readonly Scope[];
  }): Promise<IssuedToken> {
    if (!this.opts.multiTenant && input.workspace !== DEFAULT_WORKSPACE)
      throw new AppError(
        "workspace_forbidden",
        `multi-tenancy is off (set SVC_MULTI_TENANT=1): only the '${DEFAULT_WORKSPACE}' workspace exists`,
      );
    if (input.scopes?.length === 0) throw new AppError("invalid_request", "a token needs at least one scope");
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(input.workspace))
      throw new AppError("invalid_request", "workspace names are 1-64 letters, digits, '.', '_' or '-'");
    const workspace = await this.store.ensureWorkspace(input.workspace, this.opts.now());
    const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
    const record: TokenRecord = {
      id: `tok_${randomUUID().slice(0, 8)}`,
      workspaceId: workspace.id,
      actors: [...new Set(input.actors ?? [])],
      label: input.label ?? null,
      scopes: [...new Set(input.scopes ?? DEFAULT_TOKEN_SCOPES)],
      createdAt: this.opts.now(),
      revokedAt: null,
    };
    await this.store.insertToken(record, sha256Hex(token));
    return { token, record, workspaceName: workspace.name };
  }

  async revoke(tokenId: string): Promise<boolean> {
    const revoked = await this.store.revokeToken(tokenId, this.opts.now());
    this.tokens.clear();
    return revoked;
  }

  /** Resolves the caller from `Authorization: Bearer` and `x-svc-actor-id`, or throws the matching 401/403. */
  async authenticate(
    authorization: string | undefined | null,
    actorHeader: string | undefined | null,
  ): Promise<CallContext> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match?.[1]) throw new AppError("unauthorized", "send 'Authorization: Bearer <token>'");
    const hash = sha256Hex(match[1]);
    const stored = await this.tokens.get(hash, () => this.read(hash));
    if (!stored) throw new AppError("unauthorized", "unknown token");
    const { record, workspace } = stored;
    if (record.revokedAt !== null) throw new AppError("token_revoked", "this token has been revoked");
    if (!workspace) throw new AppError("unauthorized", "the token's workspace no longer exists");
    if (!this.opts.multiTenant && workspace.name !== DEFAULT_WORKSPACE)
      throw new AppError(
        "workspace_forbidden",
        "multi-tenancy is off (SVC_MULTI_TENANT): this token's workspace is disabled",
      );
    const actor = actorHeader?.trim() || null;
    if (actor !== null && !record.actors.includes(actor))
      throw new AppError("actor_forbidden", `actor '${actor}' is not allowed for this token`, {
        allowed_actors: record.actors,
      });
    return {
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      tokenId: record.id,
      actorId: actor,
      scopes: record.scopes,
    };
  }

  private async read(hash: string): Promise<StoredToken | undefined> {
    const record = await this.store.findTokenByHash(hash);
    if (!record) return undefined;
    // A revoked token's workspace is not read: it is refused either way.
    return {
      record,
      workspace: record.revokedAt === null ? await this.store.findWorkspace(record.workspaceId) : undefined,
    };
  }

  /** The caller's token as GET /v1/auth/whoami shows it; a CLI or in-process caller has no stored token, so no actors. */
  async whoami(call: CallContext): Promise<WhoAmI> {
    const record = (await this.store.listTokens(call.workspaceId)).find((t) => t.id === call.tokenId);
    return {
      workspace_id: call.workspaceId,
      workspace: call.workspaceName,
      token_id: call.tokenId,
      actor_id: call.actorId,
      actors: record?.actors ?? [],
      scopes: [...call.scopes],
    };
  }
}
