// Lint rules: typescript-eslint recommended plus the house rules (no focused tests, no floating promises in src).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
    files: ["src/domain/**/*.ts", "src/contract/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/store/**", "**/transports/**", "**/services/**", "node:http", "node:fs", "better-sqlite3"], message: "contract and domain stay pure: dependencies point inward" }] },
      ],
    },
  },
  {
    files: ["src/client/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["node:*"], message: "the client runs in browsers too" }] }] },
  },
);
