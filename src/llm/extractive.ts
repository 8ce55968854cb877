// The embedded default provider: no model. A deterministic agent that plans its look-ups from the message, asks the
// harness for the service's own tools, and answers with what they returned (the grounded answer's text), never more.
import { createHash } from "node:crypto";
import { intentOf, questionsOf } from "../domain/text/question-intent.ts";
import { estimateTokens, messageTokens } from "../domain/text/tokens.ts";
import type { ChatMessage, LlmProvider, ProviderEvent, ToolCallRequest } from "../ports/llm.ts";

export const EXTRACTIVE_ID = "extractive";

const REMEMBER = /^\s*(?:please\s+)?(?:remember|note|save|record)(?:\s+that)?\s*[:,]?\s+(.+)$/is;

interface Planned {
  name: string;
  args: Record<string, unknown>;
  why: string;
}

/** The look-ups a message calls for, among the tools the harness offered this turn. */
function plan(message: string, offered: ReadonlySet<string>): Planned[] {
  const out: Planned[] = [];
  const add = (name: string, args: Record<string, unknown>, why: string) =>
    offered.has(name) && out.push({ name, args, why }) > 0;
  const remember = REMEMBER.exec(message);
  if (remember) {
    const content = remember[1]!.trim();
    const id = createHash("sha256").update(content).digest("hex").slice(0, 12);
    add(
      "service_ingest",
      { content, source_path: `notes/remembered/${id}.md`, kind: "markdown" },
      "store the note in memory",
    );
    return out;
  }
  const questions = questionsOf(message);
  if (questions.length >= 2 && offered.has("delegate")) {
    for (const q of questions) add("delegate", { question: q }, `hand "${q}" to a sub-agent`);
    return out;
  }
  const intent = intentOf(message);
  // What is open is listed from the open loops, each line cited; the grounded answer routes there too when they are not offered.
  if (intent === "open_loops" && add("service_open_loops", { limit: 10 }, "list what is still open")) return out;
  add("service_grounded_answer", { question: message }, "answer from cited evidence only");
  if (intent === "decisions") add("service_decisions_list", { limit: 5 }, "check recorded decisions");
  return out;
}

type Result = Record<string, unknown> & {
  status?: string;
  error?: { code?: string; message?: string };
  reason?: string;
};

/** One line of the answer per tool result, in the order the tools were called. */
function compose(results: { name: string; result: Result }[]): string {
  const lines: string[] = [];
  for (const { name, result } of results) {
    const failed = result.status !== "ok" && result.status !== "artifact";
    if (name === "service_grounded_answer") {
      if (failed)
        lines.push(
          result.error?.code === "insufficient_evidence"
            ? "Memory holds no evidence that answers this."
            : `The grounded answer failed (${why(result)}).`,
        );
      else {
        const evidence = (result.citations as { text_span: string; source_path: string }[] | undefined)?.[0];
        const answer = String(result.answer ?? "");
        lines.push(
          evidence && evidence.text_span.trim() !== answer.trim()
            ? `${answer}. Evidence: "${evidence.text_span.trim()}" (${evidence.source_path}).`
            : `${answer}.`,
        );
      }
    } else if (name === "delegate") {
      lines.push(
        failed
          ? `A sub-question went unanswered (${why(result)}).`
          : `${String(result.question ?? "")} ${String(result.answer ?? "")}`.trim(),
      );
    } else if (name === "service_ingest") {
      lines.push(
        failed
          ? `I did not store the note (${why(result)}).`
          : `Stored in memory as ${String(result.source_path ?? "a note")}.`,
      );
    } else if (name === "service_decisions_list" && !failed) {
      const titles = ((result.decisions as { title: string; status: string }[] | undefined) ?? []).map(
        (d) => `${d.title} (${d.status})`,
      );
      if (titles.length) lines.push(`Recorded decisions: ${titles.join("; ")}.`);
    } else if (name === "service_open_loops" && !failed) {
      const loops = (result.loops as { text: string; source_path: string }[] | undefined) ?? [];
      // Each loop quoted with its source: the reflection check reads quotes of cited spans and source marks as no claim.
      for (const l of loops) lines.push(`Still open: "${l.text}" (${l.source_path}).`);
      if (!loops.length) lines.push("Memory holds no open loops.");
    }
  }
  return lines.join("\n") || "Memory holds no evidence that answers this.";
}

const why = (r: Result) =>
  r.status === "denied" ? `denied: ${r.reason ?? "by policy"}` : (r.error?.message ?? r.status ?? "failed");

/** The tool calls of this turn (after its user message) with their results, in call order. */
function turnResults(messages: readonly ChatMessage[]): { name: string; result: Result }[] {
  const start = messages.findLastIndex((m) => m.role === "user");
  const names = new Map<string, string>();
  const out: { name: string; result: Result }[] = [];
  for (const m of messages.slice(start + 1)) {
    for (const c of m.toolCalls ?? []) names.set(c.id, c.name);
    if (m.role === "tool" && m.toolCallId) out.push({ name: names.get(m.toolCallId) ?? "", result: parse(m.content) });
  }
  return out;
}

function parse(content: string): Result {
  try {
    return JSON.parse(content) as Result;
  } catch {
    return { status: "error", error: { message: content } };
  }
}

/** After the answer: the context a model would have been handed for it, for the turn's retrieval record. */
const PACK = { name: "service_pack", budgetTokens: 512 };

export function createExtractiveProvider(): LlmProvider {
  let calls = 0;
  const call = (name: string, args: Record<string, unknown>): ProviderEvent => ({
    type: "tool_call",
    call: { id: `call_x${++calls}`, name, arguments: JSON.stringify(args) } satisfies ToolCallRequest,
  });
  return {
    id: EXTRACTIVE_ID,
    model: "extractive-1",
    async *step({ messages, tools }): AsyncGenerator<ProviderEvent> {
      const inputTokens = messages.reduce((n, m) => n + messageTokens(m), 0);
      const offered = new Set(tools.map((t) => t.name));
      const last = messages.at(-1);
      const turn = messages.slice(messages.findLastIndex((m) => m.role === "user"));
      if (last?.role === "user") {
        const planned = plan(last.content, offered);
        if (planned.length) {
          const then =
            planned.some((p) => p.name === "service_grounded_answer") && offered.has(PACK.name)
              ? `; then ${PACK.name} for the surrounding context`
              : "";
          yield { type: "thinking", text: `Plan: ${planned.map((p) => `${p.why} (${p.name})`).join("; ")}${then}.` };
          for (const p of planned) yield call(p.name, p.args);
          yield { type: "usage", inputTokens, outputTokens: 0 };
          return yield { type: "done", finishReason: "tool_calls" };
        }
      }
      // Answered already (the text came with the pack call): nothing more to say.
      if (turn.some((m) => m.role === "assistant" && m.content)) return yield { type: "done", finishReason: "stop" };
      const results = turnResults(messages);
      const text = last?.role === "user" ? "I have no memory tools in this session to look that up." : compose(results);
      // Streamed a word at a time, as a model would, so clients render it the same way.
      for (const piece of text.match(/\S+\s*/g) ?? []) yield { type: "text", text: piece };
      yield { type: "usage", inputTokens, outputTokens: estimateTokens(text) };
      // The answer streams as soon as the evidence is in; the pack that records its context comes after it.
      const answered = results.some((r) => r.name === "service_grounded_answer");
      if (answered && offered.has(PACK.name) && !results.some((r) => r.name === PACK.name)) {
        yield call(PACK.name, { intent: turn[0]!.content, budget_tokens: PACK.budgetTokens });
        return yield { type: "done", finishReason: "tool_calls" };
      }
      yield { type: "done", finishReason: "stop" };
    },
  };
}
