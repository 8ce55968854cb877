// Workspaces and hashed bearer tokens in PostgreSQL.
import { randomUUID } from "node:crypto";
import type { TokenRecord, Workspace, WorkspaceStore } from "../../ports/workspaces.ts";
import { toToken, toWorkspace, type TokenRow } from "../rows.ts";
import type { Db } from "./open.ts";

export class WorkspaceRepo implements WorkspaceStore {
  constructor(private readonly db: Db) {}

  async ensureWorkspace(name: string, now: number): Promise<Workspace> {
    await this.db.query(
      "INSERT INTO workspaces (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
      [`ws_${randomUUID()}`, name, now],
    );
    return (await this.findWorkspace(name))!;
  }

  async findWorkspace(nameOrId: string): Promise<Workspace | undefined> {
    const { rows } = await this.db.query({
      name: "ws_find",
      text: "SELECT id, name, created_at FROM workspaces WHERE name = $1 OR id = $1",
      values: [nameOrId],
    });
    return rows[0] ? toWorkspace(rows[0]) : undefined;
  }

  async listWorkspaces(): Promise<Workspace[]> {
    return (await this.db.query("SELECT id, name, created_at FROM workspaces ORDER BY created_at, name")).rows.map(
      toWorkspace,
    );
  }

  async insertToken(t: TokenRecord, tokenHash: string): Promise<void> {
    await this.db.query(
      "INSERT INTO tokens (id, workspace_id, token_hash, actors, label, scopes, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
      [
        t.id,
        t.workspaceId,
        tokenHash,
        JSON.stringify(t.actors),
        t.label,
        JSON.stringify(t.scopes),
        t.createdAt,
        t.revokedAt,
      ],
    );
  }

  async findTokenByHash(tokenHash: string): Promise<TokenRecord | undefined> {
    const { rows } = await this.db.query<TokenRow>({
      name: "token_find",
      text: "SELECT * FROM tokens WHERE token_hash = $1",
      values: [tokenHash],
    });
    return rows[0] ? toToken(rows[0]) : undefined;
  }

  async listTokens(workspaceId?: string): Promise<TokenRecord[]> {
    const { rows } = workspaceId
      ? await this.db.query<TokenRow>("SELECT * FROM tokens WHERE workspace_id = $1 ORDER BY created_at, seq", [
          workspaceId,
        ])
      : await this.db.query<TokenRow>("SELECT * FROM tokens ORDER BY created_at, seq");
    return rows.map(toToken);
  }

  async revokeToken(id: string, now: number): Promise<boolean> {
    return (
      ((await this.db.query("UPDATE tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL", [now, id]))
        .rowCount ?? 0) > 0
    );
  }
}
