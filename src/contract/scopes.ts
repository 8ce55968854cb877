// What a token may do besides naming its workspace: the scope set, and the scope each route of the table needs.
import { z } from "zod";

/** read: recall, pack, answers, reading sessions and streams; write: change memory, chat, drive native sessions; execute: start sessions that run operator-catalog commands or call remote agents; admin: decide approvals and memory proposals. */
export const Scope = z.enum(["read", "write", "execute", "admin"]);
export type Scope = z.infer<typeof Scope>;

/** What a route row needs: one scope, or "none" (a public route, or any valid token, as for who-am-i and the MCP endpoint whose tools check their own). */
export type RouteScope = Scope | "none";

export const ALL_SCOPES: readonly Scope[] = Scope.options;
/** `smriti token create` without --scope: enough to use memory and sessions, not to run commands or approve. */
export const DEFAULT_TOKEN_SCOPES: readonly Scope[] = ["read", "write"];
/** What tokens made before scopes existed keep: all they could do then, but execute (granted only on purpose now). */
export const MIGRATED_TOKEN_SCOPES: readonly Scope[] = ["read", "write", "admin"];

/** Whether a token with `granted` may call a row needing `required`. */
export const allows = (granted: readonly Scope[], required: RouteScope): boolean =>
  required === "none" || granted.includes(required);
