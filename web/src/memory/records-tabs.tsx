// Decisions and open loops as stored: what was decided (with evidence) and what is still open (with where it is written).
import { useClient } from "../api.ts";
import { Citations } from "../ui/citations.tsx";
import { ErrorNote } from "../ui/error-note.tsx";
import { useAsync } from "../ui/use-async.ts";

export function DecisionsTab() {
  const client = useClient();
  const list = useAsync(() => client.listDecisions({ limit: 50 }), []);
  return (
    <div>
      <ErrorNote error={list.error} />
      {list.data?.decisions.length === 0 && (
        <p className="muted">No decisions recorded (POST /v1/decisions, or the service_decisions_record tool).</p>
      )}
      {list.data?.decisions.map((d) => (
        <article key={d.ref} className="panel">
          <h3>
            {d.title}{" "}
            <span className="muted">
              {d.status} · {d.namespace} · {d.ref}
            </span>
          </h3>
          <p>{d.decision}</p>
          {d.options.length > 0 && <p className="muted">Options: {d.options.join(" · ")}</p>}
          <Citations citations={d.citations} />
        </article>
      ))}
    </div>
  );
}

export function LoopsTab() {
  const client = useClient();
  const list = useAsync(() => client.openLoops({ limit: 100 }), []);
  return (
    <div>
      <ErrorNote error={list.error} />
      {list.data?.loops.length === 0 && (
        <p className="muted">Nothing open in memory: no TODO markers, open questions or unchecked items.</p>
      )}
      <ul className="compact">
        {list.data?.loops.map((l) => (
          <li key={`${l.source_path}:${l.line}`}>
            <span className="tag">{l.marker}</span> {l.text}
            {l.owner && <span className="muted"> owner {l.owner}</span>}
            {l.due && <span className="muted"> due {l.due}</span>}
            <Citations citations={[l.citation]} />
          </li>
        ))}
      </ul>
      {list.data?.truncated && <p className="muted">More loops exist than shown.</p>}
    </div>
  );
}
