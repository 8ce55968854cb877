// A raw payload for the debug view: the JSON as the service sent it.
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <details className="raw">
      <summary>{label}</summary>
      <pre>{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}
