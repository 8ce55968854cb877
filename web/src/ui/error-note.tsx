// A failed call, said plainly, in a live region so a screen reader hears it too.
import { describeError } from "../api.ts";

export function ErrorNote({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <p className="error" role="alert">
      {describeError(error)}
    </p>
  );
}
