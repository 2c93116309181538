/**
 * The Planner's settings at rest: the switch, a provider and its key (encrypted where the OS can, never returned), a
 * key tied to its address, the command line outranking Settings for its run, and every field's bound at its edge.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_PLANNER_API_KEY_CHARS, MAX_PLANNER_MODEL_CHARS, MAX_PLANNER_PROVIDER_URL_CHARS } from "../util/limits.js";
import type { OsCipher } from "../github/secret-vault.js";
import { openLocalDb } from "../store/local-db.js";
import { PLANNER_SETTING_KEYS, PlannerSettingsStore, type PlannerRunOptions } from "./planner-settings.js";

const sealer: OsCipher = {
  isEncryptionAvailable: () => true,
  encryptString: (plain) => Buffer.from(`sealed:${Buffer.from(plain).reverse().toString("hex")}`),
  decryptString: (sealed) => Buffer.from(sealed.toString().slice(7), "hex").reverse().toString(),
};
const NO_RUN_OPTIONS: PlannerRunOptions = { offByEnvironment: false, commandLineProvider: null };
const openai = { type: "openai" as const, baseUrl: "https://models.example/v1", model: "gpt-x" };

function open(cipher: OsCipher | null = sealer, run = NO_RUN_OPTIONS) {
  const db = openLocalDb(mkdtempSync(join(tmpdir(), "chopin-planner-settings-")));
  return { db, store: new PlannerSettingsStore(db, cipher, run), values: () => (db.prepare("SELECT value FROM settings").all() as { value: string }[]).map((r) => r.value).join("\n") };
}

describe("the Planner's settings", () => {
  it("start on, with GitHub Copilot, and keep a provider's key encrypted and out of every answer", () => {
    const { store, values } = open();
    expect(store.get()).toEqual({ enabled: true, offByEnvironment: false, provider: null, commandLineProvider: null });
    expect(store.provider()).toBeNull();
    const after = store.update({ provider: { ...openai, apiKey: "sk-SECRET-1" } });
    expect(after.provider).toEqual({ ...openai, keySet: true });
    expect(JSON.stringify(after)).not.toContain("sk-SECRET-1");
    expect(values()).not.toContain("sk-SECRET-1");
    expect(store.provider()).toEqual({ ...openai, apiKey: "sk-SECRET-1" });
  });

  it("keeps the key in the owner-only database where the OS cannot encrypt, and forgets it with the provider", () => {
    const { store, db } = open(null);
    store.update({ provider: { ...openai, apiKey: "sk-2" } });
    expect(store.provider()).toMatchObject({ apiKey: "sk-2" });
    store.update({ provider: null });
    expect(store.get().provider).toBeNull();
    expect(store.provider()).toBeNull();
    expect(db.prepare("SELECT count(*) AS n FROM settings WHERE key LIKE 'planner.%'").get()).toEqual({ n: 0 });
  });

  it("keeps the stored key for the same address, and refuses a new address or kind without a new key", () => {
    const { store } = open();
    store.update({ provider: { ...openai, apiKey: "sk-3" } });
    expect(store.update({ provider: { ...openai, model: "gpt-y" } }).provider).toMatchObject({ model: "gpt-y", keySet: true });
    expect(store.provider()).toMatchObject({ model: "gpt-y", apiKey: "sk-3" });
    expect(() => store.update({ provider: { ...openai, baseUrl: "https://elsewhere.example/v1" } })).toThrow(/API key: enter the key for this address/);
    expect(() => store.update({ provider: { ...openai, type: "azure" } })).toThrow(/API key/);
    expect(() => open().store.update({ provider: openai })).toThrow(/API key/);
    // Refused whole: the stored provider and key are as they were.
    expect(store.provider()).toEqual({ ...openai, model: "gpt-y", apiKey: "sk-3" });
  });

  it("turns off and on with the switch; AGENT=off keeps it off whatever the switch says", () => {
    const { store } = open();
    expect(store.off()).toBe(false);
    expect(store.update({ enabled: false })).toMatchObject({ enabled: false });
    expect(store.off()).toBe(true);
    store.update({ enabled: true });
    expect(store.off()).toBe(false);
    const forced = open(sealer, { offByEnvironment: true, commandLineProvider: null }).store;
    expect(forced.get()).toMatchObject({ enabled: true, offByEnvironment: true });
    expect(forced.off()).toBe(true);
    expect(() => store.update({ enabled: "yes" as never })).toThrow(/true or false/);
  });

  it("uses the command line's provider for its run instead of Settings' one, and shows both without keys", () => {
    const line = { type: "anthropic" as const, baseUrl: "http://127.0.0.1:9", model: "c", apiKey: "sk-line" };
    const { store } = open(sealer, { offByEnvironment: false, commandLineProvider: line });
    store.update({ provider: { ...openai, apiKey: "sk-kept" } });
    expect(store.provider()).toEqual(line);
    expect(store.get().commandLineProvider).toEqual({ type: "anthropic", baseUrl: "http://127.0.0.1:9", model: "c" });
    expect(JSON.stringify(store.get())).not.toMatch(/sk-/);
  });

  it("says a stored key cannot be read (the keyring changed) instead of using another provider", () => {
    const { db, store } = open();
    store.update({ provider: { ...openai, apiKey: "sk-4" } });
    const broken = new PlannerSettingsStore(db, { ...sealer, decryptString: () => { throw new Error("keyring changed"); } }, NO_RUN_OPTIONS);
    expect(broken.provider()).toBe("key-missing");
    expect(broken.get().provider).toMatchObject({ keySet: false });
  });

  it("refuses each field past its bound, and takes it at the bound", () => {
    const { store } = open();
    const at = (n: number, prefix: string) => prefix + "a".repeat(n - prefix.length);
    expect(store.update({ provider: { ...openai, baseUrl: at(MAX_PLANNER_PROVIDER_URL_CHARS, "https://x.example/"), apiKey: "k" } }).provider).not.toBeNull();
    expect(() => store.update({ provider: { ...openai, baseUrl: at(MAX_PLANNER_PROVIDER_URL_CHARS + 1, "https://x.example/"), apiKey: "k" } })).toThrow(/Address: an address is at most/);
    expect(store.update({ provider: { ...openai, model: "m".repeat(MAX_PLANNER_MODEL_CHARS), apiKey: "k" } }).provider?.model).toHaveLength(MAX_PLANNER_MODEL_CHARS);
    expect(() => store.update({ provider: { ...openai, model: "m".repeat(MAX_PLANNER_MODEL_CHARS + 1), apiKey: "k" } })).toThrow(/Model: a model's name is at most/);
    expect(store.update({ provider: { ...openai, apiKey: "k".repeat(MAX_PLANNER_API_KEY_CHARS) } }).provider?.keySet).toBe(true);
    expect(() => store.update({ provider: { ...openai, apiKey: "k".repeat(MAX_PLANNER_API_KEY_CHARS + 1) } })).toThrow(/API key: a key is at most/);
  });

  it("refuses what is not a provider with a sentence naming the field, and stores nothing", () => {
    const { store, db } = open();
    expect(() => store.update({ provider: { ...openai, type: "llama" as never, apiKey: "k" } })).toThrow(/Provider: the provider is one of openai, anthropic, azure/);
    expect(() => store.update({ provider: { ...openai, baseUrl: "ftp://x", apiKey: "k" } })).toThrow(/Address: .*http/);
    expect(() => store.update({ provider: { ...openai, baseUrl: "https://user:pw@x.example", apiKey: "k" } })).toThrow(/user name or password/);
    expect(() => store.update({ provider: { ...openai, model: " ", apiKey: "k" } })).toThrow(/Model: the model's name is needed/);
    expect(() => store.update({ provider: { ...openai, model: "gpt\u200b", apiKey: "k" } })).toThrow(/invisible/);
    expect(() => store.update({ provider: { ...openai, apiKey: "two words" } })).toThrow(/API key: .*spaces/);
    expect(db.prepare("SELECT count(*) AS n FROM settings WHERE key LIKE 'planner.%'").get()).toEqual({ n: 0 });
    expect(PLANNER_SETTING_KEYS.provider).toBe("planner.provider");
  });
});
