/**
 * What the relay link remembers in settings, on a database that refuses writes (storage audit: the cached relay
 * storage id was written from the core's status timer, where the full disk's SqliteError was an uncaught exception
 * that ended the core; the cached team index id was written before the team's list was attached, so a full disk kept
 * the team's list away for good and the status blamed the relay).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ChopinError } from "../../shared/errors.js";
import { makeFixture } from "../documents/test-fixture.js";
import { fillDatabase } from "../store/full-database.js";
import { getSetting, setSetting } from "../store/settings.js";
import { setUpRelay, tearDownRelay } from "./test-helpers.js";
import { RelayLink } from "./relay-link.js";
import { SettingsService } from "../settings/settings-service.js";
import { waitFor } from "../../shared/wait-for.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe("the relay link's remembered settings", () => {
  it("attaches the team's list and answers the relay's storage id though the database refuses to remember them", { timeout: 60_000 }, async () => {
    const fixture = await setUpRelay("chopin-link-relay-");
    cleanups.push(() => tearDownRelay(fixture, []));
    const { relay } = fixture;
    const fx = await makeFixture();
    cleanups.push(() => fx.close());
    const faults: ChopinError[] = [];
    const users: string[] = [];
    // As the app core does: the relay's name for this person is remembered in settings too.
    const settings = new SettingsService(fx.db);
    const noteUser = (user: string) => void (users.push(user), settings.noteTeamHandle(user));
    const disk = fillDatabase(fx.db, ["settings"]);
    const link = new RelayLink(fx.repo, fx.db, fx.service, fx.repo.peerId, () => {}, noteUser, (failure) => faults.push(failure));
    cleanups.push(() => link.close());

    await link.configure(relay.url, { kind: "relay-token", token: fixture.tokens.alice });
    await waitFor(() => fx.service.teamIndexId !== null, "the team's list attached");
    expect(link.status()).toMatchObject({ state: "connected", lastError: null });
    expect(users).toEqual(["alice"]);
    // The core's status timer asks this on every change while connected: it must answer, never throw.
    let storageId: string | null = null;
    await waitFor(() => (storageId = link.relayStorageId()) !== null, "the relay's storage id");
    // Three refused writes in a row, one run of them: said once.
    expect(faults.length).toBe(1);
    expect(faults[0]).toMatchObject({ code: "storage-failure", details: { sqliteCode: "SQLITE_FULL" } });
    expect(getSetting(fx.db, `relay.storageId:${relay.url}`)).toBeNull();

    disk.free();
    expect(link.relayStorageId()).toBe(storageId);
    expect(getSetting(fx.db, `relay.storageId:${relay.url}`)).toBe(storageId);
  });

  it("connects and attaches the team's list though its remembered id is not on this device yet (a switch away before the first fetch)", { timeout: 60_000 }, async () => {
    const fixture = await setUpRelay("chopin-link-relay-");
    cleanups.push(() => tearDownRelay(fixture, []));
    const { relay } = fixture;
    const fx = await makeFixture();
    cleanups.push(() => fx.close());
    // The id was learnt once, but the list itself never arrived before the person switched to another relay.
    setSetting(fx.db, `relay.teamIndexId:${relay.url}`, relay.teamIndexDocumentId);
    await expect(fx.repo.find(relay.teamIndexDocumentId)).rejects.toThrow(/unavailable/);
    const link = new RelayLink(fx.repo, fx.db, fx.service, fx.repo.peerId, () => {});
    cleanups.push(() => link.close());

    await link.configure(relay.url, { kind: "relay-token", token: fixture.tokens.alice });
    await waitFor(() => fx.service.teamIndexId === relay.teamIndexDocumentId, "the team's list attached", 30_000);
    expect(link.status()).toMatchObject({ state: "connected" });
  });
});
