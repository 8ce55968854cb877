// An answer in the timeline: its text, then its sources folded beneath it, once (issue 41): the citations it gives, the
// context pack it read and the layers that shaped its look-ups, opened on demand. Guardrail flags show without opening.
import { Citations } from "../ui/citations.tsx";
import { Terms } from "../ui/term.tsx";
import type { Row } from "./timeline.ts";

type TextRow = Extract<Row, { kind: "text" }>;

export function AnswerRow({ row }: { row: TextRow }) {
  const settled = row.final || row.citations.length > 0 || row.pack !== null;
  return (
    <div className="answer">
      <p aria-live={row.final ? "off" : "polite"}>{row.text}</p>
      {settled && <AnswerSources row={row} />}
      {row.guardrails.length > 0 && <p className="status status-error">guardrails: {row.guardrails.join(", ")}</p>}
    </div>
  );
}

function AnswerSources({ row }: { row: TextRow }) {
  const sources = [...new Set(row.citations.map((c) => c.source_path))];
  const n = row.citations.length;
  return (
    <details className="sources" data-testid="answer-sources">
      <summary>
        {n === 0 ? "no citations" : `${n} citation${n === 1 ? "" : "s"} from ${sources.join(", ")}`}
        {row.pack && (
          <span className="muted">
            {" "}
            · context pack {row.pack.items} items, {row.pack.used_tokens}/{row.pack.budget_tokens} tokens
          </span>
        )}
      </summary>
      <Citations citations={row.citations} />
      {row.layers && (
        <p className="muted cognition">
          layers: {row.layers.length ? <Terms names={row.layers} /> : "none changed anything"}
          {row.guardrails.length === 0 && " · no guardrail flags"}
        </p>
      )}
    </details>
  );
}
