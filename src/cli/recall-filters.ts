// The CLI's filter options (--prefix, --since, --until, --as-of, --detect-supersession) as a request's `filters`; the schema checks the times.
import type { RecallFilters } from "../contract/memory.ts";

export interface RecallOptions {
  prefix?: string;
  since?: string;
  until?: string;
  asOf?: string;
  detectSupersession?: boolean;
}

/** `{ filters }` with the options given, or nothing when none was. */
export function recallFilters(opts: RecallOptions): { filters?: RecallFilters } {
  const filters: RecallFilters = {
    ...(opts.prefix ? { source_path_prefix: opts.prefix } : {}),
    ...(opts.since ? { occurred_after: opts.since } : {}),
    ...(opts.until ? { occurred_before: opts.until } : {}),
    ...(opts.asOf ? { as_of: opts.asOf } : {}),
    ...(opts.detectSupersession ? { detect_supersession: true } : {}),
  };
  return Object.keys(filters).length ? { filters } : {};
}
