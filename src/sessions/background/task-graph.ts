// A write-capable session's task graph, prepared before it runs: the task's parts in order, then the report that joins them.
import { randomUUID } from "node:crypto";

export interface TaskGraph {
  id: string;
  nodes: { id: string; label: string }[];
  edges: { from: string; to: string }[];
}

/** One node per sentence or question of the task (its parts), each leading to the final report. */
export function taskGraph(task: string): TaskGraph {
  const parts = task
    .split(/(?<=[.?!])\s+/)
    .map((p) => p.trim())
    .filter(Boolean);
  const nodes = parts.map((label, i) => ({ id: `t${i + 1}`, label }));
  const report = { id: "report", label: "report what was found, with citations" };
  return {
    id: `tg_${randomUUID()}`,
    nodes: [...nodes, report],
    edges: nodes.map((n) => ({ from: n.id, to: report.id })),
  };
}
