// The chat box: Enter sends (Shift+Enter for a new line); the turn streams into the timeline above.
import { useState, type FormEvent } from "react";

export function Composer({ busy, onSend }: { busy: boolean; onSend: (message: string) => void }) {
  const [text, setText] = useState("");
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!text.trim() || busy) return;
    onSend(text.trim());
    setText("");
  };
  return (
    <form className="composer" onSubmit={submit}>
      <label htmlFor="message">Message</label>
      <textarea
        id="message"
        value={text}
        rows={2}
        placeholder="Ask the agent (it answers from memory, with citations)"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey) submit(e);
        }}
      />
      <button type="submit" className="primary" disabled={busy || !text.trim()}>
        {busy ? "Working…" : "Send"}
      </button>
    </form>
  );
}
