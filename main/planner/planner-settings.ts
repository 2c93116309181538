/**
 * This app's Planner settings (issue #26): the switch that turns the Planner off here, and the model provider it runs
 * on when it is not the person's GitHub Copilot access (OpenAI-compatible, Anthropic or Azure: address, model, key).
 * The key is kept like every secret setting (main/settings/secret-setting.ts: OS-encrypted where the shell can),
 * never in a synced document and never back to a window. The command line (host/planner-args.ts) outranks Settings
 * for its run: AGENT=off keeps the Planner off, and a provider given there is the one used.
 *
 * What must stay true: a key belongs to the address it was given for; a change of address or kind without a new key
 * is refused, so a stored key is never sent to another endpoint. A patch is checked whole before anything is stored.
 * A stored key that cannot be read any more (the OS keyring changed) is a provider with no key: the Planner says so
 * and never falls back to another provider silently.
 */
import type { Database } from "better-sqlite3";
import type { PlannerSettings, PlannerSettingsPatch } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import type { OsCipher } from "../github/secret-vault.js";
import { SecretSetting } from "../settings/secret-setting.js";
import { deleteSetting, getSetting, setSetting } from "../store/settings.js";
import { checkApiKey, checkProviderEndpoint, type ProviderEndpoint } from "./provider-config.js";

export const PLANNER_SETTING_KEYS = {
  /** "0" when the person turned the Planner off here; absent: on. */
  enabled: "planner.enabled",
  /** The provider's kind, address and model as JSON; absent: GitHub Copilot. */
  provider: "planner.provider",
  apiKey: "planner.providerKey",
  apiKeyEncrypted: "planner.providerKeyEncrypted",
} as const;

/** How the form names its fields, so a refusal's sentence points at the right one. */
export const PLANNER_SETTINGS_FIELDS = { type: "Provider", baseUrl: "Address", model: "Model", apiKey: "API key" };

export type ConfiguredProvider = ProviderEndpoint & { apiKey: string };

export interface PlannerRunOptions {
  /** AGENT=off for this run. */
  offByEnvironment: boolean;
  /** A provider from the command line, used for this run instead of Settings' one. */
  commandLineProvider: ConfiguredProvider | null;
}

export class PlannerSettingsStore {
  readonly #key: SecretSetting;

  constructor(
    private readonly db: Database,
    cipher: OsCipher | null,
    private readonly run: PlannerRunOptions,
  ) {
    this.#key = new SecretSetting(db, { plain: PLANNER_SETTING_KEYS.apiKey, encrypted: PLANNER_SETTING_KEYS.apiKeyEncrypted }, cipher);
  }

  get(): PlannerSettings {
    const stored = this.#storedEndpoint();
    const line = this.run.commandLineProvider;
    return {
      enabled: getSetting(this.db, PLANNER_SETTING_KEYS.enabled) !== "0",
      offByEnvironment: this.run.offByEnvironment,
      provider: stored ? { ...stored, keySet: this.#key.get() !== null } : null,
      commandLineProvider: line ? { type: line.type, baseUrl: line.baseUrl, model: line.model } : null,
    };
  }

  /** Whether the Planner is off on this app now (the environment or the switch). */
  off(): boolean {
    const { enabled, offByEnvironment } = this.get();
    return offByEnvironment || !enabled;
  }

  /**
   * The provider turns run on: the command line's, else Settings' with its key, else null (GitHub Copilot).
   * "key-missing": Settings names a provider whose key cannot be read.
   */
  provider(): ConfiguredProvider | "key-missing" | null {
    if (this.run.commandLineProvider) return this.run.commandLineProvider;
    const stored = this.#storedEndpoint();
    if (!stored) return null;
    const apiKey = this.#key.get();
    return apiKey === null ? "key-missing" : { ...stored, apiKey };
  }

  update(patch: PlannerSettingsPatch): PlannerSettings {
    if (patch.enabled !== undefined && typeof patch.enabled !== "boolean") throw new ChopinError("invalid-input", "The Planner's switch is on or off (true or false).");
    const next = patch.provider === undefined ? undefined : patch.provider === null ? null : this.#checkedProvider(patch.provider);
    this.db.transaction(() => {
      if (patch.enabled !== undefined) {
        if (patch.enabled) deleteSetting(this.db, PLANNER_SETTING_KEYS.enabled);
        else setSetting(this.db, PLANNER_SETTING_KEYS.enabled, "0");
      }
      if (next === null) {
        deleteSetting(this.db, PLANNER_SETTING_KEYS.provider);
        this.#key.set(null);
      } else if (next !== undefined) {
        setSetting(this.db, PLANNER_SETTING_KEYS.provider, JSON.stringify(next.endpoint));
        if (next.apiKey !== null) this.#key.set(next.apiKey);
      }
    })();
    return this.get();
  }

  /** The provider of a patch, checked; its key null when the stored one is kept (same kind and address). */
  #checkedProvider(input: NonNullable<PlannerSettingsPatch["provider"]>): { endpoint: ProviderEndpoint; apiKey: string | null } {
    if (typeof input !== "object") throw new ChopinError("invalid-input", "A provider is its kind, address, model and key.");
    const endpoint = checkProviderEndpoint(input, PLANNER_SETTINGS_FIELDS);
    if (input.apiKey !== undefined && input.apiKey !== "") return { endpoint, apiKey: checkApiKey(input.apiKey, PLANNER_SETTINGS_FIELDS) };
    const stored = this.#storedEndpoint();
    const sameEndpoint = stored !== null && stored.type === endpoint.type && stored.baseUrl === endpoint.baseUrl;
    if (!sameEndpoint || this.#key.get() === null) {
      throw new ChopinError("invalid-input", `${PLANNER_SETTINGS_FIELDS.apiKey}: enter the key for this address; a key is only ever sent to the address it was given for.`, { field: PLANNER_SETTINGS_FIELDS.apiKey });
    }
    return { endpoint, apiKey: null };
  }

  #storedEndpoint(): ProviderEndpoint | null {
    const raw = getSetting(this.db, PLANNER_SETTING_KEYS.provider);
    if (raw === null) return null;
    try {
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      return checkProviderEndpoint({ type: parsed.type, baseUrl: parsed.baseUrl, model: parsed.model }, PLANNER_SETTINGS_FIELDS);
    } catch {
      // Unreadable (written by a newer app, or damaged): as if none were set; the form shows none and can set one.
      return null;
    }
  }
}
