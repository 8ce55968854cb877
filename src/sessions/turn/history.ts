// The conversation a provider sees, rebuilt from the session's log (and, for a branch, its source up to the branch point).
import type { ChatMessage } from "../../ports/llm.ts";
import type { StreamEvent } from "../../ports/event-log.ts";

type Data = Record<string, unknown>;

/**
 * Model messages from logged events: user turns; what the model said (its tokens) before each tool call and at the end;
 * each tool call with its outcome; a compaction folds what came before. A step that failed over to the next provider
 * (transport_diagnostic) said nothing the conversation keeps.
 */
export function messagesOf(events: readonly StreamEvent[], prefix: readonly ChatMessage[] = []): ChatMessage[] {
  return new Conversation(prefix).catchUp(events).messages();
}

/** messagesOf folded event by event: a turn's steps extend what its earlier steps folded instead of refolding the log. */
export class Conversation {
  private out: ChatMessage[];
  private readonly args = new Map<string, string>();
  private said = "";
  private folded = 0;

  constructor(prefix: readonly ChatMessage[] = []) {
    this.out = [...prefix];
  }

  /** Folds the events of `events` past those folded already (the same log, which only grows). */
  catchUp(events: readonly StreamEvent[]): this {
    for (; this.folded < events.length; this.folded++) this.add(events[this.folded]!);
    return this;
  }

  /** The conversation so far; text a turn said before it was cut off (a restart, a stop) was said, so it goes on after it. */
  messages(): ChatMessage[] {
    return this.said ? [...this.out, { role: "assistant", content: this.said }] : [...this.out];
  }

  private add(e: StreamEvent): void {
    const d = e.data as Data;
    if (e.type === "turn_start") {
      this.out.push({ role: "user", content: String(d.message) });
      this.said = "";
    } else if (e.type === "token") this.said += String(d.text);
    else if (e.type === "transport_diagnostic") this.said = "";
    else if (e.type === "tool_call")
      this.args.set(String(d.tool_call_id), JSON.stringify(withoutId(d.arguments as Data)));
    else if (e.type === "approval_required" && d.tool_call_id)
      this.args.set(String(d.tool_call_id), JSON.stringify(d.arguments ?? {}));
    else if (e.type === "tool_validation_error") {
      this.args.set(String(d.tool_call_id), String(d.arguments));
      this.call(
        String(d.tool_call_id),
        String(d.tool_name),
        JSON.stringify({ status: "invalid_arguments", issues: d.issues }),
      );
    } else if (e.type === "tool_outcome")
      this.call(
        String(d.tool_call_id),
        String(d.tool_name),
        JSON.stringify({ status: d.status, ...(d.result as Data) }),
      );
    else if (e.type === "response" && this.said) {
      this.out.push({ role: "assistant", content: this.said });
      this.said = "";
    } else if (e.type === "context_compacted")
      this.out = [
        { role: "system", content: `Summary of the earlier conversation: ${String(d.summary)}` },
        ...this.out.slice(this.out.length - Number(d.preserved_messages)),
      ];
  }

  private call(id: string, name: string, content: string): void {
    this.out.push(
      { role: "assistant", content: this.said, toolCalls: [{ id, name, arguments: this.args.get(id) ?? "{}" }] },
      { role: "tool", content, toolCallId: id },
    );
    this.said = "";
  }
}

function withoutId(args: Data): Data {
  const { _tool_call_id: _, ...rest } = args;
  return rest;
}
