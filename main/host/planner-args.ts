/**
 * The Planner's command-line settings for host mode (issue #26): `--planner-provider openai|anthropic|azure
 * --planner-base-url URL --planner-model NAME`, the key only in CHOPIN_PLANNER_API_KEY (never a flag: flags show in
 * process lists), each flag also as a CHOPIN_PLANNER_* variable, and `AGENT=off` to turn the Planner off.
 * What must stay true: a provider is all of its parts or none; bad values are typed errors that name the fix.
 */
import { ChopinError } from "../../shared/errors.js";
import type { AppCoreOptions } from "../core/types.js";

export const PLANNER_FLAGS = { provider: "--planner-provider", baseUrl: "--planner-base-url", model: "--planner-model" } as const;
const PROVIDERS = ["openai", "anthropic", "azure"] as const;

export function parsePlannerArgs(values: Map<string, string>, env: NodeJS.ProcessEnv): NonNullable<AppCoreOptions["planner"]> {
  const off = (env.AGENT ?? "").toLowerCase() === "off";
  const type = values.get(PLANNER_FLAGS.provider) ?? env.CHOPIN_PLANNER_PROVIDER ?? null;
  const baseUrl = values.get(PLANNER_FLAGS.baseUrl) ?? env.CHOPIN_PLANNER_BASE_URL ?? null;
  const model = values.get(PLANNER_FLAGS.model) ?? env.CHOPIN_PLANNER_MODEL ?? null;
  const apiKey = env.CHOPIN_PLANNER_API_KEY ?? null;
  if (type === null && baseUrl === null && model === null) return { off };
  if (type === null || !PROVIDERS.includes(type as never)) {
    throw new ChopinError("invalid-input", `${PLANNER_FLAGS.provider} needs one of ${PROVIDERS.join(", ")}; got “${type ?? ""}”.`);
  }
  if (baseUrl === null || !/^https?:\/\//.test(baseUrl)) throw new ChopinError("invalid-input", `${PLANNER_FLAGS.baseUrl} needs the provider's http(s) address (with /v1 where it has one).`);
  if (model === null || model.trim() === "") throw new ChopinError("invalid-input", `${PLANNER_FLAGS.model} needs the model's name.`);
  if (apiKey === null || apiKey === "") throw new ChopinError("invalid-input", "The Planner's provider needs its key in the CHOPIN_PLANNER_API_KEY environment variable.");
  return { off, provider: { type: type as (typeof PROVIDERS)[number], baseUrl, model, apiKey } };
}
