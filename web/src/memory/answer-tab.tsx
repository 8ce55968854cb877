// A grounded answer with its citations, and the replay of its trajectory from the audit log (the steps behind it).
import { SmritiError } from "../../../src/client/index.ts";
import { useClient } from "../api.ts";
import { Citations } from "../ui/citations.tsx";
import { ErrorNote } from "../ui/error-note.tsx";
import { JsonBlock } from "../ui/json-block.tsx";
import { useAction } from "../ui/use-action.ts";
import { RequestNotes } from "../ui/request-notes.tsx";
import { askedNow } from "./asked-now.ts";
import { QueryForm } from "./query-form.tsx";

export function AnswerTab() {
  const client = useClient();
  const answer = useAction((question: string) => client.groundedAnswer({ question, asked_at: askedNow() }));
  const replay = useAction((trajectoryId: string) => client.auditLog({ trajectory_id: trajectoryId, limit: 200 }));
  // A withheld answer (insufficient_evidence) still has a trajectory to replay.
  const withheld =
    answer.error instanceof SmritiError
      ? (answer.error.details as { trajectory_id?: string } | undefined)?.trajectory_id
      : undefined;
  const trajectoryId = answer.data?.trajectory_id ?? withheld;
  return (
    <div>
      <QueryForm label="Question" onRun={answer.start} busy={answer.busy} />
      <ErrorNote error={answer.error} />
      {answer.data && (
        <div className="answer">
          <p className="big" data-testid="grounded-answer">
            {answer.data.answer}
          </p>
          <p className="muted">
            {answer.data.answer_type} · confidence {answer.data.confidence.toFixed(2)}
          </p>
          {answer.data.resolved_time && (
            <p className="muted" data-testid="resolved-time">
              “{answer.data.resolved_time.text}” = {answer.data.resolved_time.resolved}, resolved against{" "}
              <time dateTime={answer.data.resolved_time.reference}>
                {answer.data.resolved_time.reference.slice(0, 16).replace("T", " ")}
              </time>{" "}
              ({answer.data.resolved_time.from.slice(0, 10)} to {answer.data.resolved_time.to.slice(0, 10)}, exclusive)
            </p>
          )}
          <RequestNotes notes={answer.data.notes} />
          <Citations citations={answer.data.citations} />
        </div>
      )}
      {trajectoryId && (
        <p>
          <button type="button" onClick={() => replay.start(trajectoryId)} disabled={replay.busy}>
            Replay trajectory
          </button>{" "}
          <span className="muted mono">{trajectoryId}</span>
        </p>
      )}
      <ErrorNote error={replay.error} />
      {replay.data && (
        <ol className="compact trajectory" data-testid="trajectory">
          {replay.data.events.map((e) => (
            <li key={e.id}>
              <span className="muted">#{e.seq}</span> {e.type} <span className="muted">{e.at.slice(11, 23)}</span>
              <JsonBlock value={e.payload} label="payload" />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
