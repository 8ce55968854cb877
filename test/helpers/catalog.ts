// Agent catalogs for tests: the operator's file a `smriti serve` child reads, and the permissive one most session tests
// run under (raw argv in the weaker process sandbox, no approval floor), so they test states, not the trust boundary.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Free-form commands anywhere, in the process sandbox the operator turned on by name; A2A to the given hosts. */
export const freeFormCatalog = (a2aHosts: string[] = []) => ({
  free_form: [{ workspaces: ["*"], command: true, sandbox: "process", approval_floor: "never", a2a_hosts: a2aHosts }],
});

/** Writes `catalog` to a file of its own and returns the environment that names it. */
export function catalogEnv(catalog: unknown = freeFormCatalog()): { SMRITI_AGENT_CATALOG: string } {
  const file = join(mkdtempSync(join(tmpdir(), "smriti-catalog-")), "catalog.json");
  writeFileSync(file, JSON.stringify(catalog));
  return { SMRITI_AGENT_CATALOG: file };
}
