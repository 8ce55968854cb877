// A background session's health: score, risk flags, budget pressure, memory provenance, audit rows and recovery hints.
import type { HealthSnapshot } from "../../../src/client/index.ts";
import { Meter } from "../ui/meter.tsx";

const FLAG_NAMES = { stuck: "stuck", waiting: "waiting on an operator", degraded: "degraded", budget: "over budget" } as const;

export function HealthPanel({ health }: { health: HealthSnapshot }) {
  const flags = (Object.keys(FLAG_NAMES) as (keyof typeof FLAG_NAMES)[]).filter((f) => health.flags[f]);
  return (
    <section className="panel health" aria-label="Health" data-testid="health" data-score={health.score} data-status={health.status}>
      <h3>Health</h3>
      <p>
        Score <strong data-testid="health-score">{health.score.toFixed(2)}</strong> · status <span className={`status status-${health.status}`}>{health.status}</span>
      </p>
      <Meter value={health.score} label="health score" goodWhenHigh />
      <p data-testid="risk-flags">Risk flags: {flags.length ? flags.map((f) => <span key={f} className="flag">{FLAG_NAMES[f]}</span>) : <span className="muted">none</span>}</p>
      <h4>Budget pressure</h4>
      <ul className="budgets">
        {health.budgets.map((b) => (
          <li key={b.name}>
            <span>{b.name}</span> <span className="muted">{fmt(b.value)} / {fmt(b.limit)}</span>
            {b.crossed && <span className="flag">{b.waived ? "crossed, waived" : "crossed"}</span>}
            <Meter value={b.name === "min_score" ? b.limit : b.value} max={b.name === "min_score" ? Math.max(b.value, 1e-9) : b.limit} label={`${b.name} pressure`} />
          </li>
        ))}
      </ul>
      {health.recovery_hints.length > 0 && (
        <>
          <h4>Recovery</h4>
          <ul data-testid="recovery-hints">{health.recovery_hints.map((h) => <li key={h}>{h}</li>)}</ul>
        </>
      )}
      <h4>Memory provenance</h4>
      {health.memory_provenance.length ? (
        <ul className="compact">{health.memory_provenance.map((p) => <li key={p.chunk_hash}>{p.source_path} <span className="muted">cited {p.times_cited}×</span></li>)}</ul>
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

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
