// Every name the console shows, each in one line: the layers, the knowledge stages, the agent's tools, checkpoints and budgets.
import { BUDGETS, CHECKPOINTS, LAYERS, STAGES, TOOLS } from "../ui/glossary.ts";

const SECTIONS = [
  ["Cognitive layers", LAYERS],
  ["Knowledge stages", STAGES],
  ["Session tools", TOOLS],
  ["Checkpoints", CHECKPOINTS],
  ["Health budgets", BUDGETS],
] as const;

export function GlossaryPanel() {
  return (
    <section aria-label="Glossary" data-testid="glossary">
      <h3>Glossary</h3>
      {SECTIONS.map(([title, terms]) => (
        <details key={title}>
          <summary>{title}</summary>
          <dl className="glossary">
            {Object.entries(terms).map(([name, line]) => (
              <div key={name}>
                <dt className="mono">{name}</dt>
                <dd>{line}</dd>
              </div>
            ))}
          </dl>
        </details>
      ))}
    </section>
  );
}
