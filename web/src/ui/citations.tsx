// Citations as links: each opens its stored source at the anchor, with the quoted span highlighted (SourceView).
import { useState } from "react";
import type { Citation } from "../../../src/client/index.ts";
import { SourceView } from "./source-view.tsx";

export function Citations({ citations }: { citations: Citation[] }) {
  const [open, setOpen] = useState<Citation | null>(null);
  if (citations.length === 0) return <p className="muted">No citations.</p>;
  return (
    <>
      <ol className="citations">
        {citations.map((c, i) => (
          <li key={`${c.chunk_hash}:${i}`}>
            <button
              type="button"
              className="link"
              onClick={() => setOpen(c)}
              aria-label={`Open ${c.source_path} at ${c.anchor}`}
            >
              {c.source_path} <span className="muted">{c.anchor}</span>
            </button>
            {c.occurred_at && (
              <time className="muted" dateTime={c.occurred_at} title="when this happened or was said (occurred_at)">
                {" "}
                {c.occurred_at.slice(0, 16).replace("T", " ")}
              </time>
            )}
            {c.superseded_by && (
              <span className="muted" data-testid="superseded-by" title="a later statement replaced this one">
                {" "}
                superseded by {c.superseded_by.record_id ?? c.superseded_by.source_path} on{" "}
                {c.superseded_by.at.slice(0, 10)}
              </span>
            )}
            {c.supersedes && (
              <span className="muted" title="this statement replaced an earlier one">
                {" "}
                replaces {c.supersedes.record_id ?? c.supersedes.source_path}
              </span>
            )}
            <span className="score" title="calibrated relevance">
              {c.score.toFixed(2)}
            </span>
            <q>{c.text_span}</q>
          </li>
        ))}
      </ol>
      {open && <SourceView citation={open} onClose={() => setOpen(null)} />}
    </>
  );
}
