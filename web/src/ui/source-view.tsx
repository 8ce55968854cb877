// A cited source read back from the service (GET /v1/memory/source): the cited chunk framed, its span highlighted.
import { useEffect, useRef } from "react";
import type { Citation } from "../../../src/client/index.ts";
import { useClient } from "../api.ts";
import { ErrorNote } from "./error-note.tsx";
import { useAsync } from "./use-async.ts";

export function SourceView({ citation, onClose }: { citation: Citation; onClose: () => void }) {
  const client = useClient();
  const source = useAsync(() => client.source(citation.source_path), [citation.source_path]);
  const mark = useRef<HTMLElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  // A block body: Chromium's scrollIntoView returns a promise, which React would take for the effect's cleanup (issue 41).
  useEffect(() => {
    void mark.current?.scrollIntoView({ block: "center" });
  }, [source.data]);

  const doc = source.data;
  const chunk =
    doc?.chunks.find((c) => c.chunk_hash === citation.chunk_hash && c.anchor === citation.anchor) ??
    doc?.chunks.find((c) => c.chunk_hash === citation.chunk_hash);
  // The span is a literal substring of the stored text; look for it inside the cited chunk first.
  const from = chunk
    ? doc!.content.indexOf(citation.text_span, chunk.start)
    : (doc?.content.indexOf(citation.text_span) ?? -1);
  return (
    <dialog ref={dialog} className="source" onClose={onClose} aria-label={`Source ${citation.source_path}`}>
      <header>
        <h3>
          {citation.source_path} <span className="muted">{citation.anchor}</span>
        </h3>
        <button type="button" onClick={() => dialog.current?.close()} autoFocus>
          Close
        </button>
      </header>
      <ErrorNote error={source.error} />
      {doc && (
        <pre className="source-text">
          {from < 0 ? (
            doc.content
          ) : (
            <>
              {doc.content.slice(0, from)}
              <mark ref={mark} data-testid="cited-span">
                {citation.text_span}
              </mark>
              {doc.content.slice(from + citation.text_span.length)}
            </>
          )}
        </pre>
      )}
      {doc && from < 0 && (
        <p className="error">The cited span is not in the stored source any more (it was re-ingested or changed).</p>
      )}
    </dialog>
  );
}
