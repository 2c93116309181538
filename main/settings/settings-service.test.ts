import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toErrorShape } from "../../shared/errors.js";
import { MAX_DISPLAY_NAME_CHARS } from "../../shared/limits.js";
import { MAX_RELAY_TOKEN_CHARS, MAX_RELAY_URL_CHARS } from "../util/limits.js";
import { fillDatabase } from "../store/full-database.js";
import { openLocalDb } from "../store/local-db.js";
import { SettingsService } from "./settings-service.js";

function service() {
  return new SettingsService(openLocalDb(mkdtempSync(join(tmpdir(), "chopin-settings-"))));
}

describe("SettingsService", () => {
  it("names a person by the relay's handle for them until they choose a name (a GitHub sign-in by its login)", () => {
    const s = service();
    const osDefault = s.get().displayName;
    expect(s.noteTeamHandle("gh:alice")).toBe(true);
    expect(s.noteTeamHandle("gh:alice")).toBe(false);
    expect(s.get().displayName).toBe("alice");
    s.noteTeamHandle("bob");
    expect(s.get().displayName).toBe("bob");
    expect(s.update({ displayName: "Bob B." }).displayName).toBe("Bob B.");
    // A chosen name wins over whatever the relay says later.
    s.noteTeamHandle("robert");
    expect(s.get().displayName).toBe("Bob B.");
    expect(osDefault).not.toBe("");
  });

  it("stores display name, relay URL and a write-only token", () => {
    const s = service();
    const out = s.update({ displayName: "  Ada   Lovelace ", relayUrl: "ws://127.0.0.1:9000/", relayToken: "tok_123" });
    expect(out).toEqual({ displayName: "Ada Lovelace", relayUrl: "ws://127.0.0.1:9000", relayTokenSet: true });
    expect(JSON.stringify(out)).not.toContain("tok_123");
    expect(s.relayToken()).toBe("tok_123");
    expect(s.update({ relayUrl: null, relayToken: null })).toMatchObject({ relayUrl: null, relayTokenSet: false });
  });

  it("ties the relay token to the address it was given for: a new address forgets it unless the same change brings one", () => {
    const s = service();
    s.update({ relayUrl: "wss://team.example", relayToken: "tok_team" });
    expect(s.relayToken()).toBe("tok_team");
    // Another address alone: the token stays behind, never presented there.
    expect(s.update({ relayUrl: "wss://elsewhere.example" }).relayTokenSet).toBe(false);
    expect(s.relayToken()).toBeNull();
    // Back to the first address: it was forgotten, not kept aside.
    expect(s.update({ relayUrl: "wss://team.example" }).relayTokenSet).toBe(false);
    // A new address with its own token in the same change keeps that token for that address.
    expect(s.update({ relayUrl: "wss://new.example", relayToken: "tok_new" }).relayTokenSet).toBe(true);
    expect(s.relayToken()).toBe("tok_new");
    // The same address written again changes nothing.
    expect(s.update({ relayUrl: "wss://new.example/" }).relayTokenSet).toBe(true);
    // Removing the address forgets the token too.
    expect(s.update({ relayUrl: null })).toMatchObject({ relayUrl: null, relayTokenSet: false });
    expect(s.relayToken()).toBeNull();
  });

  it("refuses a relay token with no relay address to belong to, changing nothing", () => {
    const s = service();
    expect(() => s.update({ relayToken: "tok" })).toThrow(expect.objectContaining({ code: "invalid-input", message: expect.stringMatching(/relay address/) }));
    expect(s.get().relayTokenSet).toBe(false);
  });

  it("bounds the display name at its edge", () => {
    const s = service();
    expect(s.update({ displayName: "a".repeat(MAX_DISPLAY_NAME_CHARS) }).displayName).toHaveLength(MAX_DISPLAY_NAME_CHARS);
    expect(() => s.update({ displayName: "a".repeat(MAX_DISPLAY_NAME_CHARS + 1) })).toThrow(expect.objectContaining({ code: "invalid-input" }));
    expect(() => s.update({ displayName: "   " })).toThrow(expect.objectContaining({ code: "invalid-input" }));
  });

  it("bounds the relay token at its edge", () => {
    const s = service();
    s.update({ relayUrl: "wss://relay.example" });
    expect(s.update({ relayToken: "t".repeat(MAX_RELAY_TOKEN_CHARS) }).relayTokenSet).toBe(true);
    expect(() => s.update({ relayToken: "t".repeat(MAX_RELAY_TOKEN_CHARS + 1) })).toThrow(expect.objectContaining({ code: "invalid-input" }));
  });

  it("refuses a bad patch whole, changing nothing", () => {
    const s = service();
    s.update({ displayName: "Ada" });
    expect(() => s.update({ displayName: "Grace", relayUrl: "http://not-a-relay" })).toThrow(expect.objectContaining({ code: "invalid-input" }));
    expect(s.get().displayName).toBe("Ada");
    expect(() => s.update({ relayToken: "has space" })).toThrow(expect.objectContaining({ code: "invalid-input" }));
  });

  it("refuses a patch the database cannot take (a full disk) as 'storage-failure', changing nothing; takes it once there is room", () => {
    const db = openLocalDb(mkdtempSync(join(tmpdir(), "chopin-settings-")));
    const s = new SettingsService(db);
    s.update({ displayName: "Ada", relayUrl: "ws://relay.example" });
    const disk = fillDatabase(db, ["settings"]);
    let refused: unknown = null;
    try {
      // The relay address is removed first, in the same transaction: it must come back with the refusal.
      s.update({ displayName: "Grace Hopper ".repeat(6), relayUrl: "ws://other.example", relayToken: "tok-new" });
    } catch (error) {
      refused = error;
    }
    // What the window gets (api-dispatch.ts): not 'internal', and not the edits-kept sentence of a plan's save.
    expect(toErrorShape(refused)).toMatchObject({
      code: "storage-failure",
      message: expect.stringMatching(/the disk is full.*Nothing was changed/),
      details: expect.objectContaining({ sqliteCode: "SQLITE_FULL" }),
    });
    expect(s.get()).toEqual({ displayName: "Ada", relayUrl: "ws://relay.example", relayTokenSet: false });
    disk.free();
    expect(s.update({ displayName: "Grace Hopper", relayUrl: "ws://other.example", relayToken: "tok-new" })).toEqual({
      displayName: "Grace Hopper",
      relayUrl: "ws://other.example",
      relayTokenSet: true,
    });
  });

  it("refuses names teammates could not see or would misread", () => {
    const s = service();
    for (const name of ["\u200b", "Bob\u0000\u0007", "\u202eevil\u202c", "Ada\u2066x"]) {
      expect(() => s.update({ displayName: name }), JSON.stringify(name)).toThrow(expect.objectContaining({ code: "invalid-input" }));
    }
    expect(s.update({ displayName: "Zoë 李 😀" }).displayName).toBe("Zoë 李 😀");
  });

  it(`bounds the relay address at MAX_RELAY_URL_CHARS (${MAX_RELAY_URL_CHARS}), refuses a password in it, and suggests wss:// for https://`, () => {
    const s = service();
    const atLimit = `wss://${"a".repeat(MAX_RELAY_URL_CHARS - "wss://".length - 4)}.com`;
    expect(atLimit).toHaveLength(MAX_RELAY_URL_CHARS);
    expect(s.update({ relayUrl: atLimit }).relayUrl).toBe(atLimit);
    expect(() => s.update({ relayUrl: `${atLimit}x` })).toThrow(expect.objectContaining({ code: "invalid-input" }));
    expect(() => s.update({ relayUrl: "wss://user:secret@relay.example.com" })).toThrow(/user name or password/);
    expect(() => s.update({ relayUrl: "https://relay.example.com/sync" })).toThrow(/probably wss:\/\/relay\.example\.com\/sync/);
  });
});
