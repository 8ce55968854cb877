// The knowledge lifecycle (shravan -> manan -> nididhyasan): counts per stage, what awaits reflection or practice, pending proposals.
import { useClient } from "../api.ts";
import { ErrorNote } from "../ui/error-note.tsx";
import { Term } from "../ui/term.tsx";
import { useAsync } from "../ui/use-async.ts";

export function KnowledgeTab() {
  const client = useClient();
  const status = useAsync(() => client.knowledgeStatus({ limit: 10 }), []);
  const review = useAsync(() => client.knowledgeReview({ limit: 50 }), []);
  const proposals = useAsync(() => client.listProposals({ status: "pending", limit: 50 }), []);
  const s = status.data;
  return (
    <div>
      <ErrorNote error={status.error ?? review.error ?? proposals.error} />
      {s && (
        <p data-testid="knowledge-counts">
          <Term name="shravan">captured</Term> {s.counts.captured} · <Term name="manan">reflected</Term>{" "}
          {s.counts.reflected} · <Term name="nididhyasan">practiced</Term> {s.counts.practiced} · awaiting reflection{" "}
          {s.awaiting.reflection}, practice {s.awaiting.practice} · proposals pending {s.proposals.pending}, approved{" "}
          {s.proposals.approved}, rejected {s.proposals.rejected}
        </p>
      )}
      <h3>Awaiting reflection or practice</h3>
      {review.data?.items.length === 0 && <p className="muted">Nothing waits.</p>}
      <ol className="compact">
        {review.data?.items.map((i) => (
          <li key={i.id}>
            <span className="tag">needs {i.needs}</span> {i.title}{" "}
            <span className="muted">
              <Term name={i.stage} /> · {i.created_at.slice(0, 10)}
            </span>
          </li>
        ))}
      </ol>
      <h3>Pending proposals</h3>
      {proposals.data?.proposals.length === 0 && <p className="muted">No proposals to review.</p>}
      {proposals.data?.proposals.map((p) => (
        <details key={p.id} className="panel">
          <summary>
            {p.target_source_path}{" "}
            <span className="muted">
              proposed {p.proposed_at.slice(0, 10)}
              {p.proposed_by ? ` by ${p.proposed_by}` : ""}
            </span>
          </summary>
          <pre>{p.content}</pre>
          <p className="muted">
            Review with a reviewer's actor header: POST /v1/memory/assimilation/proposals/review (the proposer cannot
            approve their own).
          </p>
        </details>
      ))}
    </div>
  );
}
