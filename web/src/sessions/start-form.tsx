// Starts a background session with a health policy: the budgets an operator cares about most, and what crossing one does.
import type { FormEvent } from "react";
import { useClient } from "../api.ts";
import { ErrorNote } from "../ui/error-note.tsx";
import { useAction } from "../ui/use-action.ts";

export function StartForm({ onStarted }: { onStarted: (sessionId: string) => void }) {
  const client = useClient();
  const { busy, error, start } = useAction(async (input: Parameters<typeof client.startSession>[0]) =>
    onStarted((await client.startSession(input)).session.session_id),
  );
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const num = (name: string) => (f.get(name) === "" || f.get(name) === null ? undefined : Number(f.get(name)));
    const budgets = Object.fromEntries(
      ["min_score", "max_total_tokens", "max_failed_tool_calls", "max_runtime_minutes"]
        .map((k) => [k, num(k)])
        .filter(([, v]) => v !== undefined),
    );
    start({
      task: String(f.get("task") ?? ""),
      approval_mode: f.get("approval_mode") as "never" | "on-write" | "always",
      metadata: {
        policy: {
          health: { action: f.get("action") as "pause" | "approval", ...budgets },
          enforcement: { mode: f.get("mode") as "enforce" | "observe" },
        },
      },
    });
  };
  return (
    <form className="panel start" onSubmit={submit} aria-label="Start a background session">
      <label>
        Task <textarea name="task" required rows={2} placeholder="What should the agent do?" />
      </label>
      <div className="grid">
        <label>
          Approvals{" "}
          <select name="approval_mode" defaultValue="on-write">
            <option value="never">never</option>
            <option value="on-write">on write</option>
            <option value="always">always</option>
          </select>
        </label>
        <label>
          When a budget is crossed{" "}
          <select name="action" defaultValue="pause">
            <option value="pause">pause</option>
            <option value="approval">ask for approval</option>
          </select>
        </label>
        <label>
          Enforcement{" "}
          <select name="mode" defaultValue="enforce">
            <option value="enforce">enforce</option>
            <option value="observe">observe only</option>
          </select>
        </label>
        <label>
          Min health score <input name="min_score" type="number" min={0} max={1} step={0.05} placeholder="0.2" />
        </label>
        <label>
          Max total tokens <input name="max_total_tokens" type="number" min={0} step={1} />
        </label>
        <label>
          Max failed tool calls <input name="max_failed_tool_calls" type="number" min={0} step={1} placeholder="10" />
        </label>
        <label>
          Max runtime (minutes) <input name="max_runtime_minutes" type="number" min={0} step={1} placeholder="60" />
        </label>
      </div>
      <button type="submit" className="primary" disabled={busy}>
        Start
      </button>
      <ErrorNote error={error} />
    </form>
  );
}
