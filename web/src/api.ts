// The console's one way to the service: the typed client, with the token kept for this browser tab only.
import { createContext, useContext } from "react";
import {
  createClient,
  SmritiError,
  tokenCan,
  type RouteId,
  type Scope,
  type SmritiClient,
} from "../../src/client/index.ts";

const TOKEN_KEY = "smriti.console.token";

export const savedToken = (): string | null => sessionStorage.getItem(TOKEN_KEY);
export const saveToken = (token: string): void => sessionStorage.setItem(TOKEN_KEY, token);
export const forgetToken = (): void => sessionStorage.removeItem(TOKEN_KEY);

export const clientFor = (token: string): SmritiClient => createClient({ baseUrl: location.origin, token });

export const ClientContext = createContext<SmritiClient | null>(null);

export function useClient(): SmritiClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error("useClient outside a signed-in console");
  return client;
}

/** The signed-in token's scopes (from whoami); empty until known, so nothing a token may lack shows before then. */
export const ScopesContext = createContext<readonly Scope[]>([]);

/** Whether this token may call route `id`: the console hides what it may not (the server refuses it anyway). */
export function useCan(): (id: RouteId) => boolean {
  const scopes = useContext(ScopesContext);
  return (id) => tokenCan(scopes, id);
}

/** One sentence an operator can act on, for any failed call. */
export function describeError(err: unknown): string {
  if (err instanceof SmritiError) {
    if (err.status === 401)
      return "The service did not accept this token (unauthorized). Sign in again with a workspace token.";
    return `${err.message} (${err.code})`;
  }
  // fetch rejects with a TypeError when nothing answers: the service is down or unreachable.
  if (err instanceof TypeError)
    return "The service cannot be reached. Is it running? The console retries when you act again.";
  return err instanceof Error ? err.message : String(err);
}

export const isUnauthorized = (err: unknown): boolean => err instanceof SmritiError && err.status === 401;
