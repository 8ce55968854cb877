// Ajv 8 (JSON Schema 2020-12) for contract tests. package.json has no direct ajv dependency and the top-level
// node_modules/ajv is v6 (eslint's), so fall back to the copy the MCP SDK depends on until ajv@8 is a devDependency.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

export interface Validator {
  (data: unknown): boolean;
  errors?: unknown[] | null;
}

export interface Ajv2020Like {
  compile(schema: object): Validator;
}

type AjvCtor = new (opts: Record<string, unknown>) => Ajv2020Like;

export function createAjv2020(): Ajv2020Like {
  const require = createRequire(import.meta.url);
  const sdk = (require.resolve.paths("ajv") ?? [])
    .map((dir) => join(dir, "@modelcontextprotocol/sdk/package.json"))
    .find((f) => existsSync(f));
  const candidates = sdk ? [require, createRequire(sdk)] : [require];
  for (const req of candidates) {
    let mod: { default?: AjvCtor } & Partial<Record<"Ajv2020", AjvCtor>>;
    try {
      mod = req("ajv/dist/2020.js") as typeof mod;
    } catch {
      continue;
    }
    const Ajv = mod.default ?? mod.Ajv2020;
    if (!Ajv) continue;
    const ajv = new Ajv({ strict: false, allErrors: true });
    const addFormats = req("ajv-formats") as { default?: (a: Ajv2020Like) => void } & ((a: Ajv2020Like) => void);
    (addFormats.default ?? addFormats)(ajv);
    return ajv;
  }
  throw new Error("ajv@8 (ajv/dist/2020.js) is not installed: add ajv and ajv-formats as devDependencies");
}
