// Sign in with a workspace token: checked against the service at once, kept for this tab only (sessionStorage).
import { useState, type FormEvent } from "react";
import { clientFor, describeError } from "./api.ts";

export function SignIn({ onSignedIn, reason }: { onSignedIn: (token: string) => void; reason: string | null }) {
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | null>(reason);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await clientFor(token.trim()).whoami(); // any valid token, whatever its scopes
      onSignedIn(token.trim());
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="sign-in">
      <h1>Smriti console</h1>
      <form onSubmit={(e) => void submit(e)}>
        <label htmlFor="token">Workspace token</label>
        <input
          id="token"
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          autoFocus
          required
        />
        <button type="submit" className="primary" disabled={busy || !token.trim()}>
          Sign in
        </button>
        <p className="muted">
          `npm start` prints one on first start; `smriti token create` makes more. It stays in this tab only.
        </p>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
