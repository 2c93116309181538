/**
 * Checks a Planner model provider as a person gives it, on the command line (host/planner-args.ts) or in Settings
 * (planner-settings.ts): one of the provider kinds, an http(s) address, a model name, and a key. Both places name the
 * field the way the person knows it (a flag, or the form's label), so the sentences take that name.
 *
 * What must stay true: every part is checked before anything is stored or used; a refusal is a typed error whose
 * sentence names the field and the fix; bounds are the named constants of shared/limits.ts.
 */
import { PLANNER_PROVIDER_TYPES, type PlannerProviderType } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { MAX_PLANNER_API_KEY_CHARS, MAX_PLANNER_MODEL_CHARS, MAX_PLANNER_PROVIDER_URL_CHARS } from "../util/limits.js";

export interface ProviderEndpoint {
  type: PlannerProviderType;
  baseUrl: string;
  model: string;
}

export interface ProviderFieldNames {
  type: string;
  baseUrl: string;
  model: string;
  apiKey: string;
}

const invalid = (field: string, sentence: string) => new ChopinError("invalid-input", `${field}: ${sentence}`, { field });
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/u;

export function checkProviderEndpoint(input: { type: unknown; baseUrl: unknown; model: unknown }, names: ProviderFieldNames): ProviderEndpoint {
  const { type, baseUrl, model } = input;
  if (typeof type !== "string" || !PLANNER_PROVIDER_TYPES.includes(type as PlannerProviderType)) {
    throw invalid(names.type, `the provider is one of ${PLANNER_PROVIDER_TYPES.join(", ")}; got “${String(type ?? "").slice(0, 40)}”.`);
  }
  if (typeof baseUrl !== "string" || baseUrl.trim() === "") throw invalid(names.baseUrl, "the provider's http(s) address is needed (with /v1 where it has one).");
  const address = baseUrl.trim();
  if (address.length > MAX_PLANNER_PROVIDER_URL_CHARS) throw invalid(names.baseUrl, `an address is at most ${MAX_PLANNER_PROVIDER_URL_CHARS} characters.`);
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw invalid(names.baseUrl, `“${address.slice(0, 80)}” is not an address; it looks like https://api.example.com/v1.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalid(names.baseUrl, "the provider's address starts with http:// or https://.");
  // The key has its own field (kept encrypted where the OS can); one inside the address would be stored in the clear.
  if (url.username || url.password) throw invalid(names.baseUrl, "an address cannot hold a user name or password; the key goes in its own field.");
  if (typeof model !== "string" || model.trim() === "") throw invalid(names.model, "the model's name is needed.");
  const name = model.trim();
  if (name.length > MAX_PLANNER_MODEL_CHARS) throw invalid(names.model, `a model's name is at most ${MAX_PLANNER_MODEL_CHARS} characters.`);
  if (INVISIBLE.test(name)) throw invalid(names.model, "a model's name cannot hold control or invisible characters.");
  return { type: type as PlannerProviderType, baseUrl: address, model: name };
}

export function checkApiKey(apiKey: unknown, names: Pick<ProviderFieldNames, "apiKey">): string {
  if (typeof apiKey !== "string" || apiKey.trim() === "") throw invalid(names.apiKey, "the provider needs its API key.");
  const key = apiKey.trim();
  if (key.length > MAX_PLANNER_API_KEY_CHARS) throw invalid(names.apiKey, `a key is at most ${MAX_PLANNER_API_KEY_CHARS} characters.`);
  if (INVISIBLE.test(key) || /\s/.test(key)) throw invalid(names.apiKey, "a key cannot hold spaces or control characters; paste it again.");
  return key;
}
