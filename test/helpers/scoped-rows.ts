// The route table as the scope tests walk it: each row needing a scope, a request for it, and tokens with and without it.
import { ALL_SCOPES, type RouteScope, type Scope } from "../../src/contract/scopes.ts";
import type { Route } from "../../src/contract/route.ts";
import { fillPath, pathParameters, routes, type RouteId } from "../../src/contract/routes.ts";

export interface ScopedRow {
  id: RouteId;
  row: Exclude<Route, { kind: "service" }>;
  scope: RouteScope;
}

/** Every table-driven row (the service's own routes are mounted by hand and checked apart). */
export const tableRows: ScopedRow[] = (Object.entries(routes) as [RouteId, Route][]).flatMap(([id, row]) =>
  row.kind === "service" ? [] : [{ id, row, scope: row.scope }],
);

/** The row's path with placeholder ids: the scope check comes before the input is read, so they need not exist. */
export const placeholderPath = (row: ScopedRow["row"]): string =>
  fillPath(
    row.path,
    Object.fromEntries(
      pathParameters(row.path).map((p) => [
        p,
        p === "session_id" ? "ses_00000000-0000-0000-0000-000000000000" : `${p}-x`,
      ]),
    ),
  );

/** Every scope but `scope`: the strongest token that must still be refused. */
export const allBut = (scope: Scope): Scope[] => ALL_SCOPES.filter((s) => s !== scope);
