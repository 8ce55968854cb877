// The workspace's sessions, chat and background, newest first: status and health at a glance, filtered by status.
import { useEffect, useState } from "react";
import { SessionStatus, type SmritiClient } from "../../../src/client/index.ts";
import { useCan, useClient } from "../api.ts";
import { ErrorNote } from "../ui/error-note.tsx";
import { go } from "../ui/route.ts";
import { useAsync } from "../ui/use-async.ts";
import { nest, SessionRows } from "./session-rows.tsx";
import { StartForm } from "./start-form.tsx";

const STATUSES = SessionStatus.options;
type Status = (typeof STATUSES)[number];
const REFRESH_MS = 5_000;
type Page = Awaited<ReturnType<SmritiClient["listSessions"]>>;

export function SessionList() {
  const client = useClient();
  const can = useCan();
  const [status, setStatus] = useState<Status | "">("");
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const canList = can("session_list");
  const page = useAsync<Page | null>(
    async () =>
      canList ? client.listSessions({ limit: 50, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) }) : null,
    [canList, status, cursor],
  );
  // Statuses and health move while an operator watches: refresh every few seconds while the tab is visible.
  const { reload } = page;
  useEffect(() => {
    const timer = setInterval(() => document.visibilityState === "visible" && reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  const newChat = async () => {
    try {
      const state = await client.createChatSession({});
      go("sessions", "chat", state.session_id);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section aria-label="Sessions">
      <div className="toolbar">
        <h2>Sessions</h2>
        <label>
          Status{" "}
          <select
            value={status}
            onChange={(e) => (setCursor(undefined), setStatus(e.target.value as Status | ""))}
            aria-label="Filter by status"
          >
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replace("_", " ")}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={page.reload}>
          Refresh
        </button>
        {can("chat_session_create") && (
          <button type="button" className="primary" onClick={() => void newChat()}>
            New chat
          </button>
        )}
        {can("session_start") && (
          <button type="button" onClick={() => setStarting((s) => !s)} aria-expanded={starting}>
            Start background session
          </button>
        )}
      </div>
      {starting && can("session_start") && <StartForm onStarted={(id) => go("sessions", "background", id)} />}
      <ErrorNote error={error ?? page.error} />
      {!canList && (
        <p className="muted" data-testid="no-list-scope">
          This token's scopes do not include reading sessions (read).
        </p>
      )}
      <table className="sessions">
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Kind</th>
            <th scope="col">Status</th>
            <th scope="col">Health</th>
            <th scope="col">Provider</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          <SessionRows lines={nest(page.data?.sessions ?? [])} />
        </tbody>
      </table>
      {page.data && page.data.sessions.length === 0 && (
        <p className="muted">No sessions{status ? ` with status ${status}` : ""} yet.</p>
      )}
      <p>
        {cursor && (
          <button type="button" onClick={() => setCursor(undefined)}>
            First page
          </button>
        )}
        {page.data?.next_cursor && (
          <button type="button" onClick={() => setCursor(page.data!.next_cursor!)}>
            Next page
          </button>
        )}
      </p>
    </section>
  );
}
