// One session: its live timeline (default or debug view), what an operator can do to it, and its health or resume points.
import { useState } from "react";
import type { SmritiClient } from "../../../src/client/index.ts";
import { useCan, useClient } from "../api.ts";
import { ErrorNote } from "../ui/error-note.tsx";
import { go, href } from "../ui/route.ts";
import { useAction } from "../ui/use-action.ts";
import { useAsync } from "../ui/use-async.ts";
import { HealthPanel } from "./health-panel.tsx";
import { Composer } from "./composer.tsx";
import { TimelineView, type RowActions } from "./timeline-view.tsx";
import { useSessionStream } from "./use-session-stream.ts";
import { useHealth } from "./use-health.ts";

export type SessionKind = "chat" | "background";

/** The agent_profile of a session a `delegate` call started (src/sessions/policy.ts). */
const SUBAGENT_PROFILE = "subagent";
const TITLE_CHARS = 120;

export function SessionPage({ kind, sessionId }: { kind: SessionKind; sessionId: string }) {
  const client = useClient();
  const can = useCan();
  const stream = useSessionStream(sessionId);
  const [debug, setDebug] = useState(false);
  const detail = useAsync<Detail>(
    () => loadDetail(client, kind, sessionId),
    [kind, sessionId, stream.timeline.state?.status],
  );
  const health = useHealth(
    kind === "background" ? sessionId : null,
    detail.data?.kind === "background" ? detail.data.health : null,
  );
  const state = stream.timeline.state;

  /** Runs an operator's action; a streamed one feeds its events into the timeline as they come. */
  const { busy, error, start: act } = useAction((run: () => Promise<void>) => run());
  /** A new session from a point of this one (chat: /branch; background: /resume with the point), then opens it. */
  const branchFrom = (point: { from_event_id: string } | { resume_cursor: string }) =>
    act(async () => {
      const next =
        kind === "chat"
          ? await client.branchChatSession(sessionId, point)
          : await client.resumeSession(sessionId, point);
      go("sessions", kind, next.session.session_id);
    });
  const drain = async (events: AsyncIterable<Parameters<typeof stream.feed>[0]>) => {
    for await (const e of events) stream.feed(e);
  };
  const actions: RowActions = {
    busy,
    canBranch: can(kind === "chat" ? "chat_session_branch" : "session_resume"),
    canDecide: can(kind === "chat" ? "chat_approval" : "session_approval"),
    branch: (eventId) => branchFrom({ from_event_id: eventId }),
    resumeFrom: (cursor) => branchFrom({ resume_cursor: cursor }),
    decide: (requestId, decision) =>
      act(async () => {
        if (kind === "chat") await drain(client.decideApproval(sessionId, requestId, decision));
        else await client.decideSessionApproval(sessionId, requestId, decision);
      }),
  };
  const status = state?.status ?? "…";
  // What the session is about, as the list titles it: the task, or the first message.
  const firstMessage = stream.timeline.rows.find((r) => r.kind === "message");
  const about =
    detail.data?.kind === "background" ? detail.data.task : firstMessage?.kind === "message" ? firstMessage.text : null;
  const title = about && about.length > TITLE_CHARS ? `${about.slice(0, TITLE_CHARS - 1)}…` : about;

  return (
    <div className="session-page">
      <header className="session-head">
        <h2>
          <a href={href("sessions")}>Sessions</a> / {title ?? <span className="mono">{sessionId}</span>}
        </h2>
        {title && <p className="mono muted session-id">{sessionId}</p>}
        <p>
          {kind} session · status{" "}
          <span className={`status status-${status}`} data-testid="session-status">
            {status}
          </span>
          {state && (
            <span className="muted">
              {" "}
              · {state.provider}/{state.model} · {state.approval_mode} approvals
              {state.engine ? ` · engine ${state.engine}, attempt ${state.attempt_count ?? 0}` : ""}
              {state.parent_session_id && (
                <>
                  {state.agent_profile === SUBAGENT_PROFILE ? " · sub-agent of " : " · branched from "}
                  <a href={href("sessions", kind, state.parent_session_id)}>{state.parent_session_id}</a>
                </>
              )}
            </span>
          )}{" "}
          ·{" "}
          <span className={`conn conn-${stream.connection}`} data-testid="connection" role="status">
            stream {stream.connection}
          </span>
          {stream.connection === "dropped" && (
            <button type="button" className="small" onClick={stream.reconnect}>
              Reconnect
            </button>
          )}
        </p>
        <div className="actions">
          {kind === "background" && can("session_pause") && (
            <>
              <button
                type="button"
                disabled={busy || !["running", "queued", "recovering"].includes(status)}
                onClick={() => act(async () => void (await client.pauseSession(sessionId)))}
              >
                Pause
              </button>
              <button
                type="button"
                disabled={busy || status !== "paused"}
                onClick={() => act(async () => void (await client.resumeSession(sessionId)))}
              >
                Resume
              </button>
              <button
                type="button"
                disabled={busy || ["completed", "failed", "cancelled"].includes(status)}
                onClick={() => act(async () => void (await client.cancelSession(sessionId)))}
              >
                Cancel
              </button>
            </>
          )}
          <label className="toggle">
            <input type="checkbox" checked={debug} onChange={(e) => setDebug(e.target.checked)} /> Debug view
          </label>
        </div>
        <ErrorNote error={error ?? stream.error} />
      </header>
      <div className="session-body">
        <main>
          {kind === "background" && detail.data?.kind === "background" && (
            <p className="task">
              <strong>Task:</strong> {detail.data.task}
            </p>
          )}
          <TimelineView rows={stream.timeline.rows} debug={debug} actions={actions} />
          {kind === "chat" && can("chat_message") && (
            <Composer busy={busy} onSend={(message) => act(() => drain(client.sendMessage(sessionId, message)))} />
          )}
        </main>
        <aside>
          {health && <HealthPanel health={health} />}
          {detail.data?.kind === "chat" && (
            <ResumePoints
              points={detail.data.points}
              onBranch={actions.branch}
              onCursor={actions.resumeFrom}
              busy={busy}
              canBranch={actions.canBranch}
            />
          )}
          <ErrorNote error={detail.error} />
        </aside>
      </div>
    </div>
  );
}

type ChatDetail = Awaited<ReturnType<SmritiClient["getChatSession"]>>;
type Detail =
  | { kind: "chat"; points: ChatDetail["resume_points"] }
  | ({ kind: "background" } & Awaited<ReturnType<SmritiClient["getSession"]>>);

async function loadDetail(client: SmritiClient, kind: SessionKind, sessionId: string): Promise<Detail> {
  if (kind === "chat") return { kind, points: (await client.getChatSession(sessionId)).resume_points };
  return { kind, ...(await client.getSession(sessionId)) };
}

function ResumePoints({
  points,
  onBranch,
  onCursor,
  busy,
  canBranch,
}: {
  points: ChatDetail["resume_points"];
  onBranch: (id: string) => void;
  onCursor: (cursor: string) => void;
  busy: boolean;
  canBranch: boolean;
}) {
  return (
    <section className="panel" aria-label="Resume points">
      <h3>Resume points</h3>
      {points.length === 0 && <p className="muted">None yet: each completed turn, approval and checkpoint adds one.</p>}
      <ol className="compact">
        {points.map((p) => (
          <li key={p.event_id}>
            {p.kind} <span className="muted">{p.label}</span>{" "}
            {canBranch && (
              <button
                type="button"
                className="small"
                disabled={busy}
                onClick={() => (p.resume_cursor ? onCursor(p.resume_cursor) : onBranch(p.event_id))}
              >
                Branch
              </button>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
