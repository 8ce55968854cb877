// The console's shell: sign-in, the three areas (sessions, memory, cognition) and the page the hash names.
import { useEffect, useMemo, useState } from "react";
import { ClientContext, clientFor, forgetToken, isUnauthorized, savedToken, saveToken, ScopesContext } from "./api.ts";
import { CognitionPage } from "./cognition/cognition-page.tsx";
import { MemoryPage } from "./memory/memory-page.tsx";
import { SessionList } from "./sessions/session-list.tsx";
import { SessionPage } from "./sessions/session-page.tsx";
import { SignIn } from "./sign-in.tsx";
import { ErrorBoundary } from "./ui/error-boundary.tsx";
import { ErrorNote } from "./ui/error-note.tsx";
import { href, useRoute } from "./ui/route.ts";
import { useAsync } from "./ui/use-async.ts";

export function App() {
  const [token, setToken] = useState<string | null>(savedToken);
  const [reason, setReason] = useState<string | null>(null);
  const client = useMemo(() => (token ? clientFor(token) : null), [token]);
  const route = useRoute();
  const me = useAsync(async () => (client ? client.whoami() : null), [client]);
  // A token refused since it was saved (revoked, or the service restarted with another database): back to sign-in.
  useEffect(() => {
    if (!isUnauthorized(me.error)) return;
    forgetToken();
    setToken(null);
    setReason("The service no longer accepts this token. Sign in again with a workspace token.");
  }, [me.error]);
  if (!client) {
    return (
      <SignIn
        reason={reason}
        onSignedIn={(t) => {
          saveToken(t);
          setReason(null);
          setToken(t);
        }}
      />
    );
  }
  const signOut = () => {
    forgetToken();
    setToken(null);
  };
  const [area = "sessions", kind, id] = route;
  return (
    <ClientContext.Provider value={client}>
      <ScopesContext.Provider value={me.data?.scopes ?? []}>
        <nav className="top" aria-label="Console">
          <strong>Smriti</strong>
          <a href={href("sessions")} aria-current={area === "sessions" ? "page" : undefined}>
            Sessions
          </a>
          <a href={href("memory")} aria-current={area === "memory" ? "page" : undefined}>
            Memory
          </a>
          <a href={href("cognition")} aria-current={area === "cognition" ? "page" : undefined}>
            Cognition
          </a>
          {me.data && (
            <span className="muted right" data-testid="token-scopes">
              {me.data.workspace} · {me.data.scopes.join(", ")}
            </span>
          )}
          <button type="button" className="link right" onClick={signOut}>
            Sign out
          </button>
        </nav>
        <div className="page">
          {/* Keyed by the address: a failed page recovers when the operator goes elsewhere. */}
          <ErrorNote error={me.error} />
          {!me.data && !me.error && <p className="muted">Reading this token's scopes…</p>}
          {/* The page waits for the token's scopes, so it never calls a route the token may not (a 403 in the log). */}
          {me.data && (
            <ErrorBoundary key={route.join("/")} what={`the ${area} page`}>
              {area === "sessions" && (kind === "chat" || kind === "background") && id ? (
                <SessionPage key={id} kind={kind} sessionId={id} />
              ) : null}
              {area === "sessions" && !id && <SessionList />}
              {area === "memory" && <MemoryPage tab={kind} />}
              {area === "cognition" && <CognitionPage />}
            </ErrorBoundary>
          )}
        </div>
      </ScopesContext.Provider>
    </ClientContext.Provider>
  );
}
