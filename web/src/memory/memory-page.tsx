// Memory as an operator inspects it: recall, a pack preview, a grounded answer with its trajectory, decisions, open loops
// and the knowledge lifecycle; every citation opens its source.
import { href } from "../ui/route.ts";
import { AnswerTab } from "./answer-tab.tsx";
import { DecisionsTab, LoopsTab } from "./records-tabs.tsx";
import { KnowledgeTab } from "./knowledge-tab.tsx";
import { PackTab } from "./pack-tab.tsx";
import { RecallTab } from "./recall-tab.tsx";

const TABS = {
  recall: ["Recall", RecallTab],
  pack: ["Pack preview", PackTab],
  answer: ["Grounded answer", AnswerTab],
  decisions: ["Decisions", DecisionsTab],
  loops: ["Open loops", LoopsTab],
  knowledge: ["Knowledge", KnowledgeTab],
} as const;
type Tab = keyof typeof TABS;

export function MemoryPage({ tab }: { tab: string | undefined }) {
  const current: Tab = tab && tab in TABS ? (tab as Tab) : "recall";
  const Body = TABS[current][1];
  return (
    <section aria-label="Memory">
      <nav className="tabs" aria-label="Memory views">
        {(Object.keys(TABS) as Tab[]).map((t) => (
          <a key={t} href={href("memory", t)} aria-current={t === current ? "page" : undefined}>
            {TABS[t][0]}
          </a>
        ))}
      </nav>
      <Body />
    </section>
  );
}
