import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { durableUserWrites, openExistingRelayDb, openRelayDb, RELAY_DB_FILE } from "./relay-db.js";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("relay database", () => {
  it("the relay's connection commits with synchronous=NORMAL, the CLI's user commands with FULL", () => {
    dir = mkdtempSync(join(tmpdir(), "chopin-relay-db-"));
    const relay = openRelayDb(dir);
    const cli = durableUserWrites(openExistingRelayDb(dir));
    // SQLite's codes: 1 = NORMAL, 2 = FULL.
    expect(relay.pragma("synchronous", { simple: true })).toBe(1);
    expect(cli.pragma("synchronous", { simple: true })).toBe(2);
    relay.close();
    cli.close();
  });

  it("openExistingRelayDb refuses a folder without a relay database and creates nothing", () => {
    dir = mkdtempSync(join(tmpdir(), "chopin-relay-db-"));
    const typo = join(dir, "typo");
    expect(() => openExistingRelayDb(typo)).toThrow(expect.objectContaining({ code: "not-found" }));
    expect(existsSync(join(typo, RELAY_DB_FILE))).toBe(false);
    expect(existsSync(typo)).toBe(false);
  });
});
