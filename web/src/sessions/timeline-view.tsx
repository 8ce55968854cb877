// The timeline's rows: the default view shows what an operator acts on; the debug view adds every raw payload.
import { memo } from "react";
import { JsonBlock } from "../ui/json-block.tsx";
import { Term } from "../ui/term.tsx";
import { useFollowBottom } from "../ui/use-follow-bottom.ts";
import { AnswerRow } from "./answer-row.tsx";
import { shownRows, type Row } from "./timeline.ts";

export interface RowActions {
  /** Branch a new session that starts after this event. */
  branch: (eventId: string) => void;
  /** Resume (or branch) from a checkpoint's resume cursor. */
  resumeFrom: (cursor: string) => void;
  decide: (requestId: string, decision: "approve" | "deny") => void;
  busy: boolean;
  /** What the token's scopes allow: rows hide the buttons it may not use. */
  canBranch: boolean;
  canDecide: boolean;
}

export function TimelineView({ rows, debug, actions }: { rows: Row[]; debug: boolean; actions: RowActions }) {
  const shown = shownRows(rows, debug);
  // How many events the rows hold: equal to the log's count when nothing was lost or shown twice.
  const events = rows.reduce((n, r) => n + r.events.length, 0);
  useFollowBottom(events);
  return (
    <ol
      className="timeline"
      data-testid="timeline"
      data-rows={shown.length}
      data-events={events}
      aria-label="Session timeline"
    >
      {shown.map((row) => (
        <TimelineRow key={row.key} row={row} debug={debug} actions={actions} />
      ))}
    </ol>
  );
}

const TimelineRow = memo(function TimelineRow({
  row,
  debug,
  actions,
}: {
  row: Row;
  debug: boolean;
  actions: RowActions;
}) {
  const last = row.events[row.events.length - 1]!;
  return (
    <li className={`row row-${row.kind}`} data-kind={row.kind} data-key={row.key}>
      <RowBody row={row} actions={actions} debug={debug} />
      <div className="row-tools">
        {actions.canBranch && last.id && row.kind !== "approval" && (
          <button
            type="button"
            className="small"
            disabled={actions.busy}
            onClick={() => actions.branch(last.id)}
            title={`Branch a new session after event ${last.id}`}
          >
            Branch here
          </button>
        )}
      </div>
      {debug && (
        <JsonBlock
          value={row.events.map((e) => ({ id: e.id, event: e.event, data: e.data }))}
          label={`raw events (${row.events.map((e) => e.event).join(", ")})`}
        />
      )}
    </li>
  );
});

function RowBody({ row, actions, debug }: { row: Row; actions: RowActions; debug: boolean }) {
  switch (row.kind) {
    case "message":
      return (
        <p className="message">
          <strong>You:</strong> {row.text}
        </p>
      );
    case "text":
      return <AnswerRow row={row} />;
    case "thinking":
      return (
        <p className="thinking">
          <span className="tag">plan</span> {row.text}
        </p>
      );
    case "reflection":
      return (
        <p
          className={`reflection ${row.passed ? "ok" : "warn"}`}
          role={row.passed ? undefined : "alert"}
          title={`The check: ${row.check}`}
        >
          <span className="tag">claims check</span> {row.passed ? "passed" : "failed"}: {row.detail}
        </p>
      );
    case "tool":
      return (
        <div className="tool" data-tool-call-id={row.id}>
          <p>
            <span className="tag">tool</span>{" "}
            <strong>
              <Term name={row.name} />
            </strong>{" "}
            <span className="muted">{row.id}</span>{" "}
            <span className={`status status-${row.status ?? "running"}`}>{row.status ?? "running"}</span>
            {row.elapsedMs !== null && <span className="muted"> {row.elapsedMs} ms</span>}
            {row.invalid > 0 && <span className="status status-error"> {row.invalid} invalid argument attempt(s)</span>}
          </p>
          {debug && <JsonBlock value={row.args} label="arguments" />}
          {debug && <JsonBlock value={row.result} label="result" />}
          {debug && row.hooks.length > 0 && <p className="muted">hooks: {row.hooks.join("; ")}</p>}
        </div>
      );
    case "approval":
      return (
        <div className="approval" data-request-id={row.requestId}>
          <p>
            <span className="tag">approval</span>{" "}
            <strong>
              <Term name={row.tool} />
            </strong>{" "}
            {row.reason}
            {row.budgets.length > 0 && <span className="muted"> (budgets: {row.budgets.join(", ")})</span>}
          </p>
          {row.decision === null ? (
            actions.canDecide && (
              <p className="actions">
                <button
                  type="button"
                  className="primary"
                  disabled={actions.busy}
                  onClick={() => actions.decide(row.requestId, "approve")}
                >
                  Approve
                </button>
                <button type="button" disabled={actions.busy} onClick={() => actions.decide(row.requestId, "deny")}>
                  Deny
                </button>
              </p>
            )
          ) : (
            <p className={`status status-${row.decision}`}>{row.decision === "approve" ? "approved" : "denied"}</p>
          )}
        </div>
      );
    case "checkpoint":
      return (
        <p className="checkpoint">
          <span className="tag">checkpoint {row.data.sequence}</span> <Term name={row.data.checkpoint_type} /> ·{" "}
          {row.data.status} · {row.data.summary_text}
          {row.data.artifact && <span className="muted"> (artifact: {row.data.artifact.type})</span>}
          {actions.canBranch && row.data.resume_cursor && (
            <button
              type="button"
              className="small"
              disabled={actions.busy}
              onClick={() => actions.resumeFrom(row.data.resume_cursor!)}
            >
              Resume from here
            </button>
          )}
        </p>
      );
    case "step":
      return (
        <p className="step">
          <span className="tag">
            step {row.data.step}
            {row.data.total !== null ? `/${row.data.total}` : ""}
          </span>{" "}
          {row.data.label} · <span className={`status status-${row.data.status}`}>{row.data.status}</span>
        </p>
      );
    case "context":
      return (
        <p className="context warn" role="status">
          {row.note}
        </p>
      );
    case "status":
      return (
        <p className="state">
          Status: <span className={`status status-${row.status}`}>{row.status}</span>
        </p>
      );
    case "turn_end":
      return <p className="muted">Turn {row.status.replace("_", " ")}</p>;
    case "completed":
      return <p className="state">Completed</p>;
    case "error":
      return (
        <div className="error-row" role="alert">
          <p>
            <strong>Error {row.code}:</strong> {row.message}
          </p>
          <p className="hint">Recovery: {recoveryHint(row.code)}</p>
        </div>
      );
    case "diagnostic":
      return <p className="diagnostic muted">{row.summary}</p>;
  }
}

/** What an operator can do about a failed turn or run, by error code. */
export function recoveryHint(code: string): string {
  if (code.includes("timeout"))
    return "the tool or provider timed out: resume to try the step again, or raise tool_timeout_ms.";
  if (code.includes("provider") || code.includes("llm"))
    return "the model provider failed: check its URL and key, then resume or branch from the last completed turn.";
  if (code.includes("expired"))
    return "the session's expires_at passed: branch a new session from its last checkpoint.";
  if (code.includes("cancel")) return "the session was cancelled: branch from any event to go on.";
  return "branch a new session from the last good event, or send the message again.";
}
