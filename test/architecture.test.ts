// The direction of dependencies is enforced: the repository's own ESLint rules reject an import against it.
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

// The repository's config without its three type-aware rules: the import rules need no type information, and the whole
// project's type-aware program cost this file some 15 s of CPU to build (`npm run lint` still runs them all).
const eslint = new ESLint({
  cwd: new URL("..", import.meta.url).pathname,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      "@typescript-eslint/no-floating-promises": "off",
      "@typescript-eslint/await-thenable": "off",
      "@typescript-eslint/no-misused-promises": "off",
    },
  },
});

/** Lints `code` as if it were the file at `filePath`. */
async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("dependency direction", () => {
  // The first lint loads the config and its plugins: on a loaded 2-core machine, under its own deadline.
  beforeAll(() => restrictedImports("src/contract/errors.ts", "export {};\n"), 300_000);

  it.each([
    [
      "cognitive imports services",
      "src/cognitive/pipeline.ts",
      'import type { CallContext } from "../services/context.ts";',
    ],
    [
      "cognitive imports a transport",
      "src/cognitive/pipeline.ts",
      'import { createHttpApp } from "../transports/http/app.ts";',
    ],
    [
      "the HTTP transport imports the MCP transport",
      "src/transports/http/app.ts",
      'import { createMcpServer } from "../mcp/server.ts";',
    ],
    [
      "the AG-UI transport imports the HTTP transport",
      "src/transports/agui/mount.ts",
      'import { readJson } from "../http/read-json.ts";',
    ],
    [
      "the MCP transport imports the HTTP transport",
      "src/transports/mcp/server.ts",
      'import { errorResponse } from "../http/errors.ts";',
    ],
    [
      "the domain imports the search engine",
      "src/domain/retrieval/fusion.ts",
      'import { SearchEngine } from "../../search/engine.ts";',
    ],
    [
      "the contract imports the domain",
      "src/contract/errors.ts",
      'import { contentHash } from "../domain/text/hash.ts";',
    ],
    ["search imports cognitive", "src/search/engine.ts", 'import type { Layer } from "../cognitive/types.ts";'],
    [
      "a service imports the SQLite adapter",
      "src/services/memory/memory.ts",
      'import { openSqliteStore } from "../../store/sqlite/index.ts";',
    ],
    [
      "the store imports the search engine",
      "src/store/sqlite/index.ts",
      'import { SearchEngine } from "../../search/engine.ts";',
    ],
    [
      "the client imports a service",
      "src/client/index.ts",
      'import type { CallContext } from "../services/context.ts";',
    ],
    ["the thread pool imports a port", "src/threads/pool.ts", 'import type { Embedder } from "../ports/embedding.ts";'],
    [
      "the session process imports the HTTP transport",
      "src/sessions/process/serving-side.ts",
      'import { listen } from "../../transports/http/serve.ts";',
    ],
    [
      "a session file imports CallContext from services",
      "src/sessions/chat-sessions.ts",
      'import type { CallContext } from "../services/context.ts";',
    ],
    [
      "a session file imports the route handler types from services",
      "src/sessions/handlers.ts",
      'import type { Handlers } from "../services/handlers.ts";',
    ],
    [
      "the session process imports the composition root",
      "src/sessions/process/serving-side.ts",
      'import type { Config } from "../../config.ts";',
    ],
  ])("rejects: %s", async (_what, file, line) => {
    expect(await restrictedImports(file, `${line}\nexport {};\n`)).toHaveLength(1);
  });

  it.each([
    [
      "services import cognitive and search",
      "src/services/memory/memory.ts",
      'import type { Thought } from "../../cognitive/pipeline.ts";\nimport type { Candidate } from "../../search/types.ts";',
    ],
    [
      "cognitive imports the retrieval types",
      "src/cognitive/pipeline.ts",
      'import type { Candidate } from "../search/types.ts";',
    ],
    [
      "the HTTP transport imports the session process's front door",
      "src/transports/http/serve.ts",
      'import { frontDoor } from "../../sessions/process/index.ts";',
    ],
    [
      "a transport imports services and the contract",
      "src/transports/http/app.ts",
      'import type { CallContext } from "../../services/context.ts";\nimport { routes } from "../../contract/routes.ts";',
    ],
  ])("allows: %s", async (_what, file, lines) => {
    expect(await restrictedImports(file, `${lines}\nexport {};\n`)).toEqual([]);
  });
});
