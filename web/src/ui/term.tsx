// A name from the glossary (a layer, stage, tool, checkpoint or budget) with its one-line description on hover and focus.
import { describeTerm } from "./glossary.ts";

export function Term({ name }: { name: string }) {
  const description = describeTerm(name);
  if (!description) return <>{name}</>;
  return (
    <abbr className="term" title={description} data-term={name}>
      {name}
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
