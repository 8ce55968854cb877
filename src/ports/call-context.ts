// Who is calling: resolved from the bearer token by the transports, passed to every service call and session turn.
import type { Scope } from "../contract/scopes.ts";

export interface CallContext {
  workspaceId: string;
  workspaceName: string;
  tokenId: string;
  /** The x-svc-actor-id, already checked against the token's allowed actors; null when not sent. */
  actorId: string | null;
  /** What the token may do; a background run keeps those of the token that started it. */
  scopes: readonly Scope[];
  /**
   * Set for a session's tool calls: their stages (reading the question, the search, the rows) run as separate slices of
   * the event loop, so requests that arrive meanwhile are served between them. A request's own call runs straight through.
   */
  yieldsToRequests?: boolean;
  /**
   * Hears each cognitive counter this call's thoughts commit (`layer`, `counter`, n). A session turn sets it: its
   * cognition event names the layers its own calls fired, not those of other callers of the workspace meanwhile.
   */
  onCounter?: (layer: string, counter: string, n: number) => void;
}
