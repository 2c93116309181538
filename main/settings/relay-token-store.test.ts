import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { OsCipher } from "../github/secret-vault.js";
import { fillDatabase } from "../store/full-database.js";
import { openLocalDb } from "../store/local-db.js";
import { SettingsService } from "./settings-service.js";
import { ENCRYPTED_RELAY_TOKEN_KEY, RELAY_TOKEN_KEY } from "./relay-token-store.js";

/** Stands in for safeStorage: a reversible transform that never leaves the token's text in its output. */
function fakeCipher(available = true): OsCipher & { available: boolean } {
  return {
    available,
    isEncryptionAvailable() {
      return this.available;
    },
    encryptString: (plain) => Buffer.from(`sealed:${Buffer.from(plain).reverse().toString("hex")}`),
    decryptString(encrypted) {
      const text = encrypted.toString();
      if (!text.startsWith("sealed:")) throw new Error("not ours");
      return Buffer.from(text.slice(7), "hex").reverse().toString();
    },
  };
}

function openDb() {
  return openLocalDb(mkdtempSync(join(tmpdir(), "chopin-relay-token-")));
}

/** Every settings value as stored, to look for the token in the clear. */
function storedValues(db: ReturnType<typeof openDb>): string[] {
  return (db.prepare("SELECT value FROM settings").all() as { value: string }[]).map((r) => r.value);
}

describe("the relay token at rest", () => {
  it("is kept encrypted where the OS can encrypt, and read back whole", () => {
    const db = openDb();
    const settings = new SettingsService(db, fakeCipher());
    settings.update({ relayUrl: "wss://relay.example", relayToken: "tok-SECRET-123" });
    expect(settings.relayToken()).toBe("tok-SECRET-123");
    expect(settings.get().relayTokenSet).toBe(true);
    expect(storedValues(db).some((v) => v.includes("tok-SECRET-123"))).toBe(false);
    expect(new SettingsService(db, fakeCipher()).relayToken()).toBe("tok-SECRET-123");
  });

  it("is text in the owner-only database where the OS offers no encryption (host mode)", () => {
    const db = openDb();
    const settings = new SettingsService(db, fakeCipher(false));
    settings.update({ relayUrl: "wss://relay.example", relayToken: "tok-plain" });
    expect(settings.relayToken()).toBe("tok-plain");
    expect(storedValues(db)).toContain("tok-plain");
    expect(new SettingsService(db).relayToken()).toBe("tok-plain");
  });

  it("encrypts a token stored in text once a working cipher opens the store", () => {
    const db = openDb();
    new SettingsService(db).update({ relayUrl: "wss://relay.example", relayToken: "tok-older" });
    const settings = new SettingsService(db, fakeCipher());
    expect(storedValues(db).some((v) => v.includes("tok-older"))).toBe(false);
    expect(settings.relayToken()).toBe("tok-older");
  });

  it("still opens, the token readable, when the database cannot take its encrypted copy (a full disk); encrypts it later", () => {
    const db = openDb();
    new SettingsService(db).update({ relayUrl: "wss://relay.example", relayToken: "tok-older" });
    const disk = fillDatabase(db, ["settings"]);
    // A full disk must not stop the core from starting over an upgrade of how the token is kept.
    const settings = new SettingsService(db, fakeCipher());
    expect(settings.relayToken()).toBe("tok-older");
    expect(storedValues(db)).toContain("tok-older");
    disk.free();
    expect(new SettingsService(db, fakeCipher()).relayToken()).toBe("tok-older");
    expect(storedValues(db).some((v) => v.includes("tok-older"))).toBe(false);
  });

  it("keeps at most one copy: replacing or removing the token leaves no other behind", () => {
    const db = openDb();
    const cipher = fakeCipher(false);
    const settings = new SettingsService(db, cipher);
    settings.update({ relayUrl: "wss://relay.example", relayToken: "tok-one" });
    cipher.available = true;
    settings.update({ relayUrl: "wss://relay.example", relayToken: "tok-two" });
    const keys = () => (db.prepare("SELECT key FROM settings WHERE key IN (?, ?)").all(RELAY_TOKEN_KEY, ENCRYPTED_RELAY_TOKEN_KEY) as { key: string }[]).map((r) => r.key);
    expect(keys()).toEqual([ENCRYPTED_RELAY_TOKEN_KEY]);
    expect(settings.relayToken()).toBe("tok-two");
    settings.update({ relayUrl: "wss://relay.example", relayToken: null });
    expect(keys()).toEqual([]);
    expect(settings.get().relayTokenSet).toBe(false);
  });

  it("reads as no token when it can no longer be decrypted (the keyring changed), never as garbage", () => {
    const db = openDb();
    new SettingsService(db, fakeCipher()).update({ relayUrl: "wss://relay.example", relayToken: "tok-lost" });
    const other: OsCipher = { ...fakeCipher(), decryptString: () => { throw new Error("wrong key"); } };
    const settings = new SettingsService(db, other);
    expect(settings.relayToken()).toBeNull();
    expect(settings.get().relayTokenSet).toBe(false);
    expect(new SettingsService(db).relayToken()).toBeNull();
  });
});
