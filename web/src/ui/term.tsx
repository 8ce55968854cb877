// A name from the glossary (a layer, stage, tool, checkpoint or budget) with its one-line description on hover; the text
// shown may be a plainer word for it ("captured" for shravan).
import type { ReactNode } from "react";
import { describeTerm } from "./glossary.ts";

export function Term({ name, children }: { name: string; children?: ReactNode }) {
  const description = describeTerm(name);
  if (!description) return <>{children ?? name}</>;
  return (
    <abbr className="term" title={description} data-term={name}>
      {children ?? name}
    </abbr>
  );
}

/** Names joined with commas, each a Term. */
export function Terms({ names }: { names: readonly string[] }) {
  return (
    <>
      {names.map((n, i) => (
        <span key={n}>
          {i > 0 && ", "}
          <Term name={n} />
        </span>
      ))}
    </>
  );
}
