// Recall: the hits of a query as citations (each opens its source).
import { useState } from "react";
import { useClient } from "../api.ts";
import { Citations } from "../ui/citations.tsx";
import { ErrorNote } from "../ui/error-note.tsx";
import { useAction } from "../ui/use-action.ts";
import { RequestNotes } from "../ui/request-notes.tsx";
import { askedNow } from "./asked-now.ts";
import { QueryForm } from "./query-form.tsx";

export function RecallTab() {
  const client = useClient();
  const [mode, setMode] = useState<"hybrid" | "lexical" | "vector">("hybrid");
  const [from, setFrom] = useState("");
  const [until, setUntil] = useState("");
  // Whole days, inclusive: "until" 2023-05-31 keeps everything that occurred on the 31st.
  const filters = {
    ...(from ? { occurred_after: `${from}T00:00:00Z` } : {}),
    ...(until ? { occurred_before: nextDay(until) } : {}),
  };
  const recall = useAction((query: string) => client.recall({ query, mode, k: 10, filters, asked_at: askedNow() }));
  return (
    <div>
      <QueryForm label="Query" onRun={recall.start} busy={recall.busy}>
        <label>
          Mode{" "}
          <select value={mode} onChange={(e) => setMode(e.target.value as typeof mode)}>
            <option value="hybrid">hybrid</option>
            <option value="lexical">lexical</option>
            <option value="vector">vector</option>
          </select>
        </label>
        <label>
          Occurred from <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          until <input type="date" value={until} onChange={(e) => setUntil(e.target.value)} />
        </label>
      </QueryForm>
      <ErrorNote error={recall.error} />
      {recall.data && (
        <>
          <p className="muted">
            {recall.data.hits.length} hit(s) in {recall.data.took_ms} ms
          </p>
          <RequestNotes notes={recall.data.notes} />
          <Citations citations={recall.data.hits} />
        </>
      )}
    </div>
  );
}

/** The start of the day after a yyyy-mm-dd date, in UTC. */
function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
}
