// Recall: the hits of a query as citations (each opens its source).
import { useState } from "react";
import { useClient } from "../api.ts";
import { Citations } from "../ui/citations.tsx";
import { ErrorNote } from "../ui/error-note.tsx";
import { useAction } from "../ui/use-action.ts";
import { QueryForm } from "./query-form.tsx";

export function RecallTab() {
  const client = useClient();
  const [mode, setMode] = useState<"hybrid" | "lexical" | "vector">("hybrid");
  const recall = useAction((query: string) => client.recall({ query, mode, k: 10 }));
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
      </QueryForm>
      <ErrorNote error={recall.error} />
      {recall.data && (
        <>
          <p className="muted">
            {recall.data.hits.length} hit(s) in {recall.data.took_ms} ms
          </p>
          <Citations citations={recall.data.hits} />
        </>
      )}
    </div>
  );
}
