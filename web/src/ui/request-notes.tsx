// How the service read a request when that needs saying (a future as_of, what "yesterday" was read as).
export function RequestNotes({ notes }: { notes?: string[] | undefined }) {
  if (!notes?.length) return null;
  return (
    <ul className="muted compact" data-testid="request-notes">
      {notes.map((note) => (
        <li key={note}>{note}</li>
      ))}
    </ul>
  );
}
