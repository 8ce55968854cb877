// The config a runtime starts with: the defaults, overridden by the tuner's latest parameters, then by the environment's switches.
import type { CognitiveStore } from "../ports/cognitive.ts";
import { defaultCognitiveConfig, switchesFromEnv, withSwitches, type CognitiveConfig } from "./params.ts";
import { latestTuned } from "./records.ts";

export async function runtimeCognitiveConfig(store: CognitiveStore, env: NodeJS.ProcessEnv): Promise<CognitiveConfig> {
  const tuned = env.SMRITI_TUNED === "0" ? null : await latestTuned(store);
  // Parameters merge per layer, so a tuner record from before a parameter existed leaves that one at its default.
  const base: CognitiveConfig = tuned
    ? {
        enabled: { ...defaultCognitiveConfig.enabled, ...tuned.enabled },
        params: Object.fromEntries(
          Object.entries(defaultCognitiveConfig.params).map(([k, v]) => [
            k,
            { ...v, ...(tuned.params as unknown as Record<string, object>)[k] },
          ]),
        ) as unknown as CognitiveConfig["params"],
      }
    : defaultCognitiveConfig;
  return withSwitches(base, switchesFromEnv(env));
}
