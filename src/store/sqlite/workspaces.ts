// Workspaces and hashed bearer tokens in the embedded store.
import { randomUUID } from "node:crypto";
import type { Statement } from "better-sqlite3";
import type { Db } from "./open.ts";
import type { TokenRecord, Workspace, WorkspaceStore } from "../../ports/workspaces.ts";
import { toToken, toWorkspace, type TokenRow } from "../rows.ts";

export class WorkspaceRepo implements WorkspaceStore {
  // Prepared once per SQL text: every authenticated request looks up its token and workspace, and preparing a
  // statement costs more than running this one.
  private readonly statements = new Map<string, Statement<unknown[]>>();
  constructor(private readonly db: Db) {}

  private sql(text: string): Statement<unknown[]> {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  async ensureWorkspace(name: string, now: number): Promise<Workspace> {
    this.sql("INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING").run(
      `ws_${randomUUID()}`,
      name,
      now,
    );
    return (await this.findWorkspace(name))!;
  }

  async findWorkspace(nameOrId: string): Promise<Workspace | undefined> {
    const row = this.sql("SELECT id, name, created_at FROM workspaces WHERE name = ? OR id = ?").get(
      nameOrId,
      nameOrId,
    );
    return row ? toWorkspace(row as never) : undefined;
  }

  async listWorkspaces(): Promise<Workspace[]> {
    return (this.sql("SELECT id, name, created_at FROM workspaces ORDER BY created_at, name").all() as never[]).map(
      toWorkspace,
    );
  }

  async insertToken(t: TokenRecord, tokenHash: string): Promise<void> {
    this.sql(
      "INSERT INTO tokens (id, workspace_id, token_hash, actors, label, scopes, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ).run(
      t.id,
      t.workspaceId,
      tokenHash,
      JSON.stringify(t.actors),
      t.label,
      JSON.stringify(t.scopes),
      t.createdAt,
      t.revokedAt,
    );
  }

  async findTokenByHash(tokenHash: string): Promise<TokenRecord | undefined> {
    const row = this.sql("SELECT * FROM tokens WHERE token_hash = ?").get(tokenHash) as TokenRow | undefined;
    return row ? toToken(row) : undefined;
  }

  async listTokens(workspaceId?: string): Promise<TokenRecord[]> {
    const rows = workspaceId
      ? this.sql("SELECT * FROM tokens WHERE workspace_id = ? ORDER BY created_at").all(workspaceId)
      : this.sql("SELECT * FROM tokens ORDER BY created_at").all();
    return (rows as TokenRow[]).map(toToken);
  }

  async revokeToken(id: string, now: number): Promise<boolean> {
    return this.sql("UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(now, id).changes > 0;
  }
}
