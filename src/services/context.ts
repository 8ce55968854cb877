// Who is calling: resolved from the bearer token by the transports, passed to every service call.
export interface CallContext {
  workspaceId: string;
  workspaceName: string;
  tokenId: string;
  /** The x-svc-actor-id, already checked against the token's allowed actors; null when not sent. */
  actorId: string | null;
}
