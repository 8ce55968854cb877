// The configured providers and their fallback order, from SMRITI_LLM_* (README "Configuration", docs/sessions.md).
import { z } from "zod";
import type { LlmProvider, ProviderSet } from "../ports/llm.ts";
import { createExtractiveProvider, EXTRACTIVE_ID } from "./extractive.ts";
import { createOpenAiProvider } from "./openai.ts";

const blankIsUnset = (v: unknown) => (v === "" ? undefined : v);

const LlmEnv = z.object({
  SMRITI_LLM_PROVIDER: z.preprocess(blankIsUnset, z.enum(["extractive", "openai"]).default("extractive")),
  SMRITI_LLM_BASE_URL: z.preprocess(blankIsUnset, z.url().optional()),
  SMRITI_LLM_API_KEY: z.preprocess(blankIsUnset, z.string().optional()),
  SMRITI_LLM_MODEL: z.preprocess(blankIsUnset, z.string().optional()),
  /** Comma-separated provider ids tried after the session's own; extractive always ends the chain. */
  SMRITI_LLM_FALLBACK: z.preprocess(blankIsUnset, z.string().optional()),
  SMRITI_LLM_TIMEOUT_MS: z.preprocess(blankIsUnset, z.coerce.number().int().min(100).default(60_000)),
  SMRITI_LLM_CONTEXT_TOKENS: z.preprocess(blankIsUnset, z.coerce.number().int().min(512).optional()),
  /** The model's price in USD per million input / output tokens: usage and the cost budget use it (unset: cost unknown). */
  SMRITI_LLM_USD_PER_MTOK_IN: z.preprocess(blankIsUnset, z.coerce.number().min(0).optional()),
  SMRITI_LLM_USD_PER_MTOK_OUT: z.preprocess(blankIsUnset, z.coerce.number().min(0).optional()),
});

/** Context budgets when none is configured: a small local model's window; extractive reads whole tool results. */
const DEFAULT_CONTEXT = { openai: 8_192, extractive: 32_000 } as const;

/**
 * `provider`: a provider built by the caller (a local client's language-model provider); it becomes the default and is
 * chosen by its id, with the configured ones and extractive after it. Its model is its own: a session's `model` is kept
 * as a label only.
 */
export function createProviderSet(
  env: NodeJS.ProcessEnv,
  opts: { fetch?: typeof fetch; provider?: LlmProvider } = {},
): ProviderSet {
  const parsed = LlmEnv.safeParse(env);
  if (!parsed.success)
    throw new Error(
      `bad model configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  const e = parsed.data;
  const openaiConfigured = e.SMRITI_LLM_BASE_URL !== undefined;
  if (e.SMRITI_LLM_PROVIDER === "openai" && !openaiConfigured)
    throw new Error("SMRITI_LLM_PROVIDER=openai needs SMRITI_LLM_BASE_URL (e.g. http://127.0.0.1:11434 for Ollama)");
  const given = opts.provider;
  const ids = [...new Set([...(given ? [given.id] : []), ...(openaiConfigured ? ["openai"] : []), EXTRACTIVE_ID])];
  const fallback = (e.SMRITI_LLM_FALLBACK ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = fallback.filter((f) => !ids.includes(f));
  if (unknown.length)
    throw new Error(`SMRITI_LLM_FALLBACK names providers that are not configured: ${unknown.join(", ")}`);
  const extractive = createExtractiveProvider();
  const openai = new Map<string, LlmProvider>();
  const instance = (id: string, model: string | null): LlmProvider => {
    if (id === given?.id) return given;
    if (id === EXTRACTIVE_ID) return extractive;
    const m = model ?? e.SMRITI_LLM_MODEL ?? "llama3.1";
    let p = openai.get(m);
    if (!p)
      openai.set(
        m,
        (p = createOpenAiProvider({
          baseUrl: e.SMRITI_LLM_BASE_URL!,
          apiKey: e.SMRITI_LLM_API_KEY,
          model: m,
          timeoutMs: e.SMRITI_LLM_TIMEOUT_MS,
          fetch: opts.fetch,
        })),
      );
    return p;
  };
  return {
    defaultProvider: given?.id ?? e.SMRITI_LLM_PROVIDER,
    ids,
    chain(provider, model) {
      const order = [...new Set([provider, ...fallback.filter((f) => f !== EXTRACTIVE_ID), EXTRACTIVE_ID])];
      // The session's model belongs to its own provider; fallbacks run their configured model.
      return order.map((id) => instance(id, id === provider ? model : null));
    },
    costUsd(provider, input, output) {
      if (provider === EXTRACTIVE_ID) return 0;
      const [pin, pout] = [e.SMRITI_LLM_USD_PER_MTOK_IN, e.SMRITI_LLM_USD_PER_MTOK_OUT];
      return pin === undefined || pout === undefined ? null : (input * pin + output * pout) / 1e6;
    },
    contextTokens: (provider) =>
      e.SMRITI_LLM_CONTEXT_TOKENS ??
      DEFAULT_CONTEXT[provider as keyof typeof DEFAULT_CONTEXT] ??
      DEFAULT_CONTEXT.openai,
  };
}
