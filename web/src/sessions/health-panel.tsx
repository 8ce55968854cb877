// A background session's health: score, risk flags, how much of each budget is used, memory provenance, audit rows and
// recovery hints. The score's bar is full when healthy; a budget's bar fills as the budget is used up.
import type { HealthSnapshot } from "../../../src/client/index.ts";
import { Meter } from "../ui/meter.tsx";
import { Term } from "../ui/term.tsx";
import { budgetUse } from "./budget-use.ts";

const FLAG_NAMES = {
  stuck: "stuck",
  waiting: "waiting on an operator",
  degraded: "degraded",
  budget: "over budget",
} as const;

export function HealthPanel({ health }: { health: HealthSnapshot }) {
  const flags = (Object.keys(FLAG_NAMES) as (keyof typeof FLAG_NAMES)[]).filter((f) => health.flags[f]);
  return (
    <section
      className="panel health"
      aria-label="Health"
      data-testid="health"
      data-score={health.score}
      data-status={health.status}
    >
      <h3>Health</h3>
      <p>
        Score <strong data-testid="health-score">{health.score.toFixed(2)}</strong> · status{" "}
        <span className={`status status-${health.status}`}>{health.status}</span>
      </p>
      <Meter value={health.score} label="health score (1 is healthy)" goodWhenHigh />
      <p data-testid="risk-flags">
        Risk flags:{" "}
        {flags.length ? (
          flags.map((f) => (
            <span key={f} className="flag">
              {FLAG_NAMES[f]}
            </span>
          ))
        ) : (
          <span className="muted">none</span>
        )}
      </p>
      <h4>Budgets used</h4>
      <ul className="budgets">
        {health.budgets.map((b) => {
          const { used, figures } = budgetUse(b);
          return (
            <li key={b.name} data-budget={b.name}>
              <span>
                <Term name={b.name} />
              </span>{" "}
              <span className="muted">
                {figures} · {Math.round(100 * used)}% used
              </span>
              {b.crossed && <span className="flag">{b.waived ? "crossed, waived" : "crossed"}</span>}
              <Meter value={used} label={`${b.name}: share of the budget used`} />
            </li>
          );
        })}
      </ul>
      {health.recovery_hints.length > 0 && (
        <>
          <h4>Recovery</h4>
          <ul data-testid="recovery-hints">
            {health.recovery_hints.map((h) => (
              <li key={h}>{h}</li>
            ))}
          </ul>
        </>
      )}
      <h4>Memory provenance</h4>
      {health.memory_provenance.length ? (
        <ul className="compact">
          {health.memory_provenance.map((p) => (
            <li key={p.chunk_hash}>
              {p.source_path} <span className="muted">cited {p.times_cited}×</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No evidence cited yet.</p>
      )}
      <h4>Audit</h4>
      <ol className="compact audit">
        {health.audit.map((a) => (
          <li key={a.event_id}>
            <span className="muted">{a.at.slice(11, 19)}</span> {a.type}: {a.summary}
          </li>
        ))}
      </ol>
    </section>
  );
}
