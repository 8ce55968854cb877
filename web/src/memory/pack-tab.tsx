// Pack preview: what a context pack within a token budget would hold, and what it dropped.
import { useState } from "react";
import { useClient } from "../api.ts";
import { Citations } from "../ui/citations.tsx";
import { ErrorNote } from "../ui/error-note.tsx";
import { Meter } from "../ui/meter.tsx";
import { useAction } from "../ui/use-action.ts";
import { QueryForm } from "./query-form.tsx";

export function PackTab() {
  const client = useClient();
  const [budget, setBudget] = useState(800);
  const pack = useAction((intent: string) => client.pack({ intent, budget_tokens: budget }));
  const p = pack.data;
  return (
    <div>
      <QueryForm label="Intent" onRun={pack.start} busy={pack.busy}>
        <label>
          Budget (tokens){" "}
          <input type="number" min={64} value={budget} onChange={(e) => setBudget(Number(e.target.value))} />
        </label>
      </QueryForm>
      <ErrorNote error={pack.error} />
      {p && (
        <>
          <p>
            {p.items.length} item(s), {p.used_tokens} of {p.budget_tokens} tokens · dropped {p.dropped.near_duplicates}{" "}
            near-duplicates, {p.dropped.over_budget} over budget
          </p>
          <Meter value={p.used_tokens} max={p.budget_tokens} label="pack budget used" />
          <Citations citations={p.items.map((i) => i.citation)} />
          <h4>Per source</h4>
          <ul className="compact">
            {p.sources.map((s) => (
              <li key={s.source_path}>
                <strong>{s.source_path}</strong>: {s.summary}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
