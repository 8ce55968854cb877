// A call run on demand (a form's submit): its result, its error and whether it is under way.
import { useState } from "react";

export function useAction<A extends unknown[], T>(run: (...args: A) => Promise<T>) {
  const [state, setState] = useState<{ data?: T; error?: unknown; busy: boolean }>({ busy: false });
  const start = (...args: A) => {
    setState((s) => ({ ...s, busy: true, error: undefined }));
    run(...args).then(
      (data) => setState({ data, busy: false }),
      (error: unknown) => setState({ error, busy: false }),
    );
  };
  return { ...state, start };
}
