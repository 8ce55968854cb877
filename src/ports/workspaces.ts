// Workspaces and the tokens bound to them (stored hashed): what authentication reads.
import type { Scope } from "../contract/scopes.ts";

export interface Workspace {
  id: string;
  name: string;
  createdAt: number;
}

export interface TokenRecord {
  id: string;
  workspaceId: string;
  actors: string[];
  label: string | null;
  scopes: Scope[];
  createdAt: number;
  revokedAt: number | null;
}

/** Workspaces by name or id, and their tokens by the hash of the secret. */
export interface WorkspaceStore {
  ensureWorkspace(name: string, now: number): Promise<Workspace>;
  findWorkspace(nameOrId: string): Promise<Workspace | undefined>;
  listWorkspaces(): Promise<Workspace[]>;

  insertToken(token: TokenRecord, tokenHash: string): Promise<void>;
  findTokenByHash(tokenHash: string): Promise<TokenRecord | undefined>;
  listTokens(workspaceId?: string): Promise<TokenRecord[]>;
  revokeToken(id: string, now: number): Promise<boolean>;
}
