/**
 * The Planner's command-line settings for host mode (issue #26): `--planner-provider openai|anthropic|azure
 * --planner-base-url URL --planner-model NAME`, the key only in CHOPIN_PLANNER_API_KEY (never a flag: flags show in
 * process lists), each flag also as a CHOPIN_PLANNER_* variable, and `AGENT=off` to turn the Planner off. A provider
 * given here is used for this run instead of the one in Settings.
 * What must stay true: a provider is all of its parts or none; bad values are typed errors that name the flag.
 */
import type { AppCoreOptions } from "../core/types.js";
import { checkApiKey, checkProviderEndpoint } from "../planner/provider-config.js";

export const PLANNER_FLAGS = { provider: "--planner-provider", baseUrl: "--planner-base-url", model: "--planner-model" } as const;
const NAMES = { type: PLANNER_FLAGS.provider, baseUrl: PLANNER_FLAGS.baseUrl, model: PLANNER_FLAGS.model, apiKey: "CHOPIN_PLANNER_API_KEY" };

export function parsePlannerArgs(values: Map<string, string>, env: NodeJS.ProcessEnv): NonNullable<AppCoreOptions["planner"]> {
  const off = (env.AGENT ?? "").toLowerCase() === "off";
  const type = values.get(PLANNER_FLAGS.provider) ?? env.CHOPIN_PLANNER_PROVIDER ?? null;
  const baseUrl = values.get(PLANNER_FLAGS.baseUrl) ?? env.CHOPIN_PLANNER_BASE_URL ?? null;
  const model = values.get(PLANNER_FLAGS.model) ?? env.CHOPIN_PLANNER_MODEL ?? null;
  if (type === null && baseUrl === null && model === null) return { off };
  const endpoint = checkProviderEndpoint({ type, baseUrl, model }, NAMES);
  return { off, provider: { ...endpoint, apiKey: checkApiKey(env.CHOPIN_PLANNER_API_KEY, NAMES) } };
}
