// The cognitive stack as pictures: each layer's uplift (ablation and stress), its counters over since-windows, and the
// recall latency distribution from /metrics.
import type { SmritiClient } from "../../../src/client/index.ts";
import { useClient } from "../api.ts";
import { ErrorNote } from "../ui/error-note.tsx";
import { describeTerm } from "../ui/glossary.ts";
import { Term } from "../ui/term.tsx";
import { useAsync } from "../ui/use-async.ts";
import { Bars } from "./bars.tsx";
import { GlossaryPanel } from "./glossary-panel.tsx";
import { latencyBuckets } from "./latency.ts";

const WINDOWS = ["1h", "24h", "7d", "all"] as const;
type Uplift = Awaited<ReturnType<SmritiClient["uplift"]>>;

export function CognitionPage() {
  const client = useClient();
  const windows = useAsync(() => Promise.all(WINDOWS.map((w) => client.uplift(w === "all" ? {} : { since: w }))), []);
  const metrics = useAsync(() => client.metricsText(), []);
  const all = windows.data?.[WINDOWS.length - 1];
  const buckets = metrics.data ? latencyBuckets(metrics.data, "/v1/memory/recall") : [];
  return (
    <section aria-label="Cognition">
      <h2>Cognitive stack</h2>
      <ErrorNote error={windows.error ?? metrics.error} />
      {all && <UpliftBars uplift={all} />}
      {windows.data && <CountersOverTime windows={windows.data} />}
      <h3>Recall latency (HTTP, since the service started)</h3>
      {buckets.every((b) => b.count === 0) ? (
        <p className="muted">No recall served yet.</p>
      ) : (
        <Bars
          label="recall latency distribution"
          bars={buckets.map((b) => ({ label: b.le === Infinity ? "slower" : `≤ ${b.le} ms`, value: b.count }))}
          format={(v) => String(v)}
        />
      )}
      <GlossaryPanel />
    </section>
  );
}

function UpliftBars({ uplift }: { uplift: Uplift }) {
  const rows = uplift.layers.flatMap((l) => [
    ...Object.entries(l.uplift ?? {}).map(([metric, value]) => ({
      label: `${l.id} · ${metric}`,
      value,
      hint: describeTerm(l.id),
    })),
    ...Object.entries(l.stress_uplift ?? {}).map(([metric, value]) => ({
      label: `${l.id} · stress ${metric}`,
      value,
      hint: describeTerm(l.id),
    })),
  ]);
  return (
    <>
      <h3>Uplift per layer (on minus off)</h3>
      {rows.length === 0 ? (
        <p className="muted">
          No ablation or stress run recorded yet: `smriti cognitive ablate` or `npm run eval -- ablation` (and `--
          stress`) fill these.
        </p>
      ) : (
        <Bars label="uplift per layer" bars={rows} />
      )}
      <p className="muted">
        Tuner: tried {uplift.tuner.tried}, kept {uplift.tuner.kept}.
      </p>
    </>
  );
}

function CountersOverTime({ windows }: { windows: Uplift[] }) {
  const total = (u: Uplift, id: string) =>
    Object.values(u.layers.find((l) => l.id === id)?.counters ?? {}).reduce((a, b) => a + b, 0);
  const ids = windows[0]!.layers.map((l) => l.id);
  return (
    <>
      <h3>Layer activity over time (counter totals per window)</h3>
      <table className="counters" aria-label="layer counters per window">
        <thead>
          <tr>
            <th scope="col">layer</th>
            {WINDOWS.map((w) => (
              <th key={w} scope="col">
                {w === "all" ? "all time" : `last ${w}`}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ids.map((id) => {
            const totals = windows.map((u) => total(u, id));
            const most = Math.max(1, ...totals);
            return (
              <tr key={id}>
                <th scope="row">
                  <Term name={id} />
                </th>
                {totals.map((n, i) => (
                  <td key={WINDOWS[i]} className="num">
                    <span className="spark" style={{ width: `${(100 * n) / most}%` }} /> {n}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
