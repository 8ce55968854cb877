// One text box and a button, for the memory tabs that run a query.
import { useState, type FormEvent, type ReactNode } from "react";

export function QueryForm({
  label,
  onRun,
  busy,
  children,
}: {
  label: string;
  onRun: (text: string) => void;
  busy: boolean;
  children?: ReactNode;
}) {
  const [text, setText] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) onRun(text.trim());
  };
  return (
    <form className="query" onSubmit={submit}>
      <label>
        {label} <input value={text} onChange={(e) => setText(e.target.value)} required />
      </label>
      {children}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? "…" : "Run"}
      </button>
    </form>
  );
}
