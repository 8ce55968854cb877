// Open loops labelled after the detector's rules were frozen (issue 40 item 3): note styles the rules were not written
// against, scored once and left as they came out (eval/README.md).
import type { LabelledNote } from "./open-loops-labelled.ts";

export const HELD_OUT_NOTES: LabelledNote[] = [
  {
    name: "postmortem with an action table",
    content: `# Postmortem: checkout outage, 12 May

## Impact

Checkout failed for 41 minutes. Was any order lost? No: the queue held them.

## Action items

| Action | Owner | Due |
|---|---|---|
| Add an alert on queue depth | Ravi | 2024-05-20 |
| Load-test the payment adapter | Mei | 2024-06-01 |

## Lessons

Feature flags saved us.
`,
    open: [{ line: "Add an alert on queue depth" }, { line: "Load-test the payment adapter" }],
  },
  {
    name: "notion-style meeting note",
    content: `Design review — search v2

Decisions
- Ship BM25 first, vectors behind a flag.

Open items
- Do we reindex on deploy or lazily?
- Latency budget for the API (Kim)

Notes
The team liked the explain view.
`,
    open: [{ line: "reindex on deploy" }, { line: "Latency budget", owner: "Kim" }],
  },
  {
    name: "email summary",
    content: `Hi all,

Quick summary of where we are. The contract is signed and billing starts in July.
We still need to decide who owns the on-call for the new region.
Pending: the security review, which Omar will finish by Thursday.

Thanks,
Lena
`,
    open: [{ line: "still need to decide" }, { line: "Pending: the security review", owner: "Omar", due: "Thursday" }],
  },
  {
    name: "obsidian note with tags",
    content: `# Reading list

- [[Designing Data-Intensive Applications]] #read
- [ ] [[Database Internals]] #toread
- [x] [[The Phoenix Project]]

Why did I stop reading SICP? Too slow on the bus.
`,
    open: [{ line: "Database Internals" }],
  },
  {
    name: "incident log",
    content: `## 2024-04-03 incident

- 10:02 pager fired for disk usage on db-2
- 10:15 cleared old WAL segments
- Follow-up: move WAL to its own volume (owner: Sara)
- Root cause unknown, still under investigation
`,
    open: [{ line: "move WAL", owner: "Sara" }, { line: "still under investigation" }],
  },
];
