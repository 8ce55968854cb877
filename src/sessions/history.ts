// The conversation a provider sees, rebuilt from the session's log (and, for a branch, its source up to the branch point).
import type { ChatMessage } from "../ports/llm.ts";
import type { StreamEvent } from "../ports/event-log.ts";

type Data = Record<string, unknown>;

/**
 * Model messages from logged events: user turns; what the model said (its tokens) before each tool call and at the end;
 * each tool call with its outcome; a compaction folds what came before. A step that failed over to the next provider
 * (transport_diagnostic) said nothing the conversation keeps.
 */
export function messagesOf(events: readonly StreamEvent[], prefix: readonly ChatMessage[] = []): ChatMessage[] {
  let out: ChatMessage[] = [...prefix];
  const args = new Map<string, string>();
  let said = "";
  const call = (id: string, name: string, content: string) => {
    out.push({ role: "assistant", content: said, toolCalls: [{ id, name, arguments: args.get(id) ?? "{}" }] }, { role: "tool", content, toolCallId: id });
    said = "";
  };
  for (const e of events) {
    const d = e.data as Data;
    if (e.type === "turn_start") {
      out.push({ role: "user", content: String(d.message) });
      said = "";
    }
    else if (e.type === "token") said += String(d.text);
    else if (e.type === "transport_diagnostic") said = "";
    else if (e.type === "tool_call") args.set(String(d.tool_call_id), JSON.stringify(withoutId(d.arguments as Data)));
    else if (e.type === "approval_required" && d.tool_call_id) args.set(String(d.tool_call_id), JSON.stringify(d.arguments ?? {}));
    else if (e.type === "tool_validation_error") {
      args.set(String(d.tool_call_id), String(d.arguments));
      call(String(d.tool_call_id), String(d.tool_name), JSON.stringify({ status: "invalid_arguments", issues: d.issues }));
    } else if (e.type === "tool_outcome") call(String(d.tool_call_id), String(d.tool_name), JSON.stringify({ status: d.status, ...(d.result as Data) }));
    else if (e.type === "response" && said) {
      out.push({ role: "assistant", content: said });
      said = "";
    }
    else if (e.type === "context_compacted") out = [{ role: "system", content: `Summary of the earlier conversation: ${String(d.summary)}` }, ...out.slice(out.length - Number(d.preserved_messages))];
  }
  // Text a turn said before it was cut off (a restart, a stop): it was said, so the turn goes on after it, not again.
  if (said) out.push({ role: "assistant", content: said });
  return out;
}

function withoutId(args: Data): Data {
  const { _tool_call_id: _, ...rest } = args;
  return rest;
}
