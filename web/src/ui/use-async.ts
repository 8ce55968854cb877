// Runs an async load when its inputs change; the latest call wins, and errors are kept for the page to show.
import { useCallback, useEffect, useRef, useState } from "react";

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const run = useRef(0);
  // The caller names the inputs (deps), as with useEffect.
  const stable = useCallback(load, deps);
  const reload = useCallback(() => {
    const mine = ++run.current;
    setState((s) => ({ ...s, loading: true }));
    stable().then(
      (data) => mine === run.current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => mine === run.current && setState((s) => ({ data: s.data, error, loading: false })),
    );
  }, [stable]);
  useEffect(reload, [reload]);
  return { ...state, reload };
}
