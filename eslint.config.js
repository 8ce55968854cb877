// Lint rules: typescript-eslint recommended, the house rules (no focused tests), and the direction of dependencies.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The src/ folders bottom up: each may import those before it, never those after it.
const LAYERS = ["contract", "domain", "ports", "search", "cognitive", "services", "sessions", "transports", "cli"];
// Adapters implement ports; only the composition root (main, cli) picks and imports them.
const ADAPTERS = ["store", "embed", "llm", "nlp", "observability"];
// The composition root's files; transports see the composed service through runtime.ts alone.
const ROOT = ["main.ts", "local-client.ts", "config.ts"];
const TRANSPORTS = ["http", "mcp", "agui"];

const patterns = (names) => names.flatMap((n) => (n.endsWith(".ts") ? [`**/${n}`] : [`**/${n}/**`]));
const rule = (files, forbid, message, extra = [], more = []) => ({
  files,
  rules: {
    "no-restricted-imports": ["error", { patterns: [{ group: [...patterns(forbid), ...extra], message }, ...more] }],
  },
});
const above = (layer) => LAYERS.slice(LAYERS.indexOf(layer) + 1);
const others = (list, one) => list.filter((x) => x !== one);
const ONE_WAY =
  "dependencies point one way: contract <- domain <- ports <- search <- cognitive <- services <- sessions <- transports <- cli/main (eslint.config.js)";

// Sessions take the call and the route handler types from ports, as services do, not from services (issue 42).
const SESSIONS_OWN = {
  group: ["**/services/context.ts", "**/services/handlers.ts"],
  message: "sessions import CallContext and the route handler types from ports/ (call-context.ts, route-handlers.ts)",
};
const layerRules = LAYERS.filter((l) => l !== "transports" && l !== "cli").map((layer) =>
  rule(
    [`src/${layer}/**/*.ts`],
    [...above(layer), ...ROOT, "runtime.ts", ...ADAPTERS],
    ONE_WAY,
    layer === "contract" || layer === "domain" ? ["node:http", "node:fs", "better-sqlite3"] : [],
    layer === "sessions" ? [SESSIONS_OWN] : [],
  ),
);
const transportRules = TRANSPORTS.map((t) =>
  rule(
    [`src/transports/${t}/**/*.ts`],
    [...others(TRANSPORTS, t), "cli", ...ROOT, ...ADAPTERS],
    `a transport imports no other transport, adapter or composition root; ${ONE_WAY}`,
  ),
);
// Worker-thread plumbing every layer and adapter may use; it uses none of them.
const threadRules = [
  rule(
    ["src/threads/**/*.ts"],
    [...LAYERS, ...ADAPTERS, ...ROOT, "runtime.ts"],
    "src/threads imports nothing of the service",
  ),
];
const adapterRules = ADAPTERS.map((a) =>
  rule(
    [`src/${a}/**/*.ts`],
    [...above("ports"), ...ROOT, "runtime.ts", ...others(ADAPTERS, a)],
    `an adapter implements ports and imports no other layer above them or other adapter; ${ONE_WAY}`,
  ),
);

export default tseslint.config(
  { ignores: ["node_modules/**", "data/**", "bench/results/**", "eval/results/**", "web/dist/**", "dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-non-null-assertion": "off",
      "no-restricted-properties": [
        "error",
        { object: "it", property: "only", message: "no focused tests" },
        { object: "describe", property: "only", message: "no focused tests" },
        { object: "test", property: "only", message: "no focused tests" },
      ],
    },
  },
  {
    // Every store call is asynchronous: a write nobody awaits would fail silently or race its reader.
    files: ["src/**/*.ts", "test/**/*.ts", "bench/**/*.ts", "eval/**/*.ts", "web/**/*.ts", "web/**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
    },
  },
  ...layerRules,
  ...transportRules,
  ...adapterRules,
  ...threadRules,
  rule(
    ["src/client/**/*.ts"],
    [...LAYERS.filter((l) => l !== "contract"), ...ROOT, "runtime.ts", ...ADAPTERS],
    "the client imports the contract only: it runs in browsers too",
    ["node:*"],
  ),
  // The framework adapters (issue 46) are the client's: they reach the service through it, in browsers too.
  rule(
    ["src/frameworks/**/*.ts"],
    [...LAYERS.filter((l) => l !== "contract"), ...ROOT, "runtime.ts", ...ADAPTERS],
    "the framework adapters import the client and the contract only: they run wherever the client does",
    ["node:*"],
  ),
  {
    // An effect's return value is its cleanup: an expression body returns whatever the call gives (Chromium's scrollIntoView
    // gives a promise, which React then calls on unmount and blanks the page; issue 41).
    files: ["web/src/**/*.ts", "web/src/**/*.tsx"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          // An expression body that is itself the cleanup (() => () => stop()) is fine.
          selector:
            "CallExpression[callee.name=/^use(Layout|Insertion)?Effect$/] > ArrowFunctionExpression[expression=true]:not([body.type='ArrowFunctionExpression'])",
          message: "give an effect a block body: an expression body's value becomes its cleanup",
        },
      ],
    },
  },
  // The console speaks to the service through the typed client alone (no private routes, no server code in the bundle).
  rule(["web/src/**"], [], "the console imports the client only (src/client), never other server code", [
    "**/src/*",
    "!**/src/client",
    "**/src/*/**",
    "!**/src/client/**",
    "node:*",
  ]),
);
