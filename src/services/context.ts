// Who is calling: resolved from the bearer token by the transports, passed to every service call.
export interface CallContext {
  workspaceId: string;
  workspaceName: string;
  tokenId: string;
  /** The x-svc-actor-id, already checked against the token's allowed actors; null when not sent. */
  actorId: string | null;
  /**
   * Set for a session's tool calls: their stages (reading the question, the search, the rows) run as separate slices of
   * the event loop, so requests that arrive meanwhile are served between them. A request's own call runs straight through.
   */
  yieldsToRequests?: boolean;
}
