// Where a page load's main-thread time goes: Chromium's Performance metrics, and (optionally) a CPU profile's top self times.
import type { CDPSession } from "playwright-core";

export interface MainThread {
  /** Seconds Chromium reports as ms: time in tasks, script, style recalculation and layout, and DOM nodes at the end. */
  taskMs: number;
  scriptMs: number;
  styleMs: number;
  layoutMs: number;
  nodes: number;
}

export async function mainThread(cdp: CDPSession): Promise<MainThread> {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const m = (name: string) => metrics.find((x) => x.name === name)?.value ?? NaN;
  const ms = (name: string) => Math.round(m(name) * 1000);
  return {
    taskMs: ms("TaskDuration"),
    scriptMs: ms("ScriptDuration"),
    styleMs: ms("RecalcStyleDuration"),
    layoutMs: ms("LayoutDuration"),
    nodes: m("Nodes"),
  };
}

export interface HotFunction {
  selfMs: number;
  name: string;
  /** file:line:column (1-based) in the served script; minified names need the unminified build to read. */
  at: string;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

/** Self time per function from a V8 CPU profile (Profiler.stop), the largest first. */
export function topSelfTimes(
  profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] },
  top = 12,
): HotFunction[] {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, HotFunction>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // timeDeltas[i] is the time before sample i; the interval after sample i is timeDeltas[i + 1].
  for (let i = 0; i < samples.length; i++) {
    const frame = byNode.get(samples[i]!);
    if (!frame) continue;
    const file = frame.url ? frame.url.slice(frame.url.lastIndexOf("/") + 1) : "";
    const at = file ? `${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}` : "";
    const name = frame.functionName || (file ? "(anonymous)" : "(native)");
    const key = `${name}@${at}`;
    const entry = self.get(key) ?? { selfMs: 0, name, at };
    entry.selfMs += (deltas[i + 1] ?? 0) / 1000;
    self.set(key, entry);
  }
  return [...self.values()]
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, top)
    .map((f) => ({ ...f, selfMs: Math.round(f.selfMs * 10) / 10 }));
}
