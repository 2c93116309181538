import { afterEach, describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import { generateAutomergeUrl, parseAutomergeUrl, type DocumentId } from "@automerge/automerge-repo";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import type { WorkspaceIndex } from "../../shared/schema/workspace-index.js";
import { sharesOf } from "../store/relay-shares.js";
import { makeFixture, TEST_RELAY_URL, type Fixture } from "./test-fixture.js";
import { newIndex, readEntries } from "./workspace-index.js";
import { waitFor } from "../../shared/wait-for.js";

let fx: Fixture;
afterEach(async () => {
  await fx?.close();
});

function teamIndex(f: Fixture) {
  return f.repo.create<WorkspaceIndex>(newIndex("team"));
}

const sharedIds = (f: Fixture, url = TEST_RELAY_URL) =>
  (f.db.prepare("SELECT document_id FROM relay_shares WHERE relay_url = ? ORDER BY document_id").all(url) as { document_id: string }[]).map((row) => row.document_id);

/** An id no plan on this device has (as a teammate's new plan has). */
const newId = () => parseAutomergeUrl(generateAutomergeUrl()).documentId;

/** A teammate's plan as sync delivers it: the bytes of a plan made elsewhere. */
function theirPlan(title: string): Uint8Array {
  return A.save(
    A.change(A.init<PlanDocument>(), (d) => {
      Object.assign(d, {
        schemaVersion: 1, kind: "plan", title, text: "their words", repository: null, createdVia: "app",
        provenance: null, brief: null, archivedAt: null, createdAt: 5, updatedAt: 5, authors: {},
      });
    }),
  );
}

const teamEntry = (title: string) => ({ title, createdVia: "app" as const, archivedAt: null, createdAt: 5, updatedAt: 5 });

describe("sharing", () => {
  it("private -> shared once; never the reverse", async () => {
    fx = await makeFixture({ relayUrl: TEST_RELAY_URL });
    const { id } = await fx.service.createDocument({ title: "T", shared: false });
    expect(fx.service.isShared(id)).toBe(false);
    expect((await fx.service.shareDocument(id)).shared).toBe(true);
    expect(fx.service.isShared(id)).toBe(true);
    await expect(fx.service.shareDocument(id)).rejects.toMatchObject({ code: "already-shared" });
    expect((await fx.service.getDocument(id)).shared).toBe(true);
  });

  it("refuses a share with no relay configured ('no-relay'), changing nothing", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "T" });
    await expect(fx.service.shareDocument(id)).rejects.toMatchObject({ code: "no-relay" });
    expect(fx.service.isShared(id)).toBe(false);
    expect(fx.db.prepare("SELECT count(*) AS n FROM relay_shares").get()).toEqual({ n: 0 });
  });

  it("defaults new documents to shared when a relay is configured; explicit choice wins", async () => {
    fx = await makeFixture();
    expect((await fx.service.createDocument({})).shared).toBe(false);
    fx.service.setRelay(TEST_RELAY_URL);
    expect((await fx.service.createDocument({})).shared).toBe(true);
    expect((await fx.service.createDocument({ shared: false })).shared).toBe(false);
  });

  it("a share made before the team index is known is entered on setTeamIndex; once seen there, its removal is a teammate's", async () => {
    fx = await makeFixture({ relayUrl: TEST_RELAY_URL });
    const { id } = await fx.service.createDocument({ title: "Early", shared: true });
    const priv = await fx.service.createDocument({ title: "Private", shared: false });
    expect(sharedIds(fx)).toEqual([id]);
    const team = teamIndex(fx);
    await fx.service.setTeamIndex(team.documentId, true);
    expect([...readEntries(team).keys()]).toEqual([id]);
    expect(readEntries(team).get(id)?.title).toBe("Early");
    expect(fx.service.isShared(team.documentId)).toBe(true);
    expect(fx.service.isShared(priv.id)).toBe(false);
    // Someone removed it from the team index: it is no longer shared, and the next setTeamIndex leaves it out.
    team.change((d) => void delete d.documents[id]);
    await waitFor(() => !fx.service.isShared(id), "!fx.service.isShared(id)");
    await fx.service.setTeamIndex(team.documentId, true);
    expect(readEntries(team).has(id)).toBe(false);
    expect(sharedIds(fx)).toEqual([]);
  });

  it("shares go straight into a known team index, and renames refresh the team entry", async () => {
    fx = await makeFixture({ relayUrl: TEST_RELAY_URL });
    const team = teamIndex(fx);
    await fx.service.setTeamIndex(team.documentId, true);
    const { id } = await fx.service.createDocument({ title: "Doc", shared: false });
    expect(readEntries(team).has(id)).toBe(false);
    await fx.service.shareDocument(id);
    expect(readEntries(team).get(id)?.title).toBe("Doc");
    await fx.service.renameDocument(id, "Renamed");
    expect(readEntries(team).get(id)?.title).toBe("Renamed");
  });

  it("lists documents teammates shared through the team index: a plan this device lacks becomes the team's before it is fetched", async () => {
    fx = await makeFixture({ relayUrl: TEST_RELAY_URL });
    const team = teamIndex(fx);
    await fx.service.setTeamIndex(team.documentId, true);
    const bytes = theirPlan("Their plan");
    const theirId = newId();
    fx.changed.length = 0;
    // The team's list names it first (as sync delivers the list), and only then does the plan arrive.
    team.change((d) => void (d.documents[theirId] = teamEntry("Their plan")));
    await waitFor(() => fx.changed.some((ids) => ids.includes(theirId)), "fx.changed.some((ids) => ids.includes(theirId))");
    expect(fx.service.isShared(theirId)).toBe(true);
    expect(sharesOf(fx.db, { url: TEST_RELAY_URL, teamIndexId: team.documentId })).toMatchObject([{ documentId: theirId, origin: "team" }]);
    fx.repo.import<PlanDocument>(bytes, { docId: theirId });
    const listed = await fx.service.listDocuments();
    expect(listed.find((d) => d.id === theirId)).toMatchObject({ title: "Their plan", shared: true });
    expect((await fx.service.getDocument(theirId)).title).toBe("Their plan");
    // Detaching the team index hides them again.
    await fx.service.setTeamIndex(null);
    expect((await fx.service.listDocuments()).some((d) => d.id === theirId)).toBe(false);
  });

  it("refuses an unusable team index id", async () => {
    fx = await makeFixture();
    await expect(fx.service.setTeamIndex("nope")).rejects.toMatchObject({ code: "invalid-input" });
  });

  it("the local index survives a restart (same id from settings)", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "Kept" });
    const first = fx.service.localIndexId;
    await fx.repo.flush();
    const { storage, dir } = fx;
    fx.service.close();
    await fx.repo.shutdown();
    fx.db.close();
    fx = await makeFixture({ storage, dir });
    expect(fx.service.localIndexId).toBe(first);
    expect((await fx.service.listDocuments()).map((d) => d.id)).toEqual([id as DocumentId]);
  });
});

describe("a teammate's entry for a plan this device keeps private", () => {
  it("is ignored: the plan stays private, keeps its own title, is never refreshed into the list, and its page says a teammate listed it", async () => {
    fx = await makeFixture({ relayUrl: TEST_RELAY_URL });
    const team = teamIndex(fx);
    await fx.service.setTeamIndex(team.documentId, true);
    const { id } = await fx.service.createDocument({ title: "Diary", markdown: "private words", shared: false });
    // A hostile member writes the id into the team's list under a title of their choosing.
    team.change((d) => void (d.documents[id] = { ...teamEntry("Now ours"), updatedAt: Date.UTC(2030, 0, 1) }));
    await waitFor(() => fx.changed.some((ids) => ids.includes(id)), "fx.changed.some((ids) => ids.includes(id))");
    expect(fx.service.isShared(id)).toBe(false);
    expect(sharedIds(fx)).toEqual([]);
    expect((await fx.service.listDocuments()).find((d) => d.id === id)).toMatchObject({ title: "Diary", shared: false });
    const detail = await fx.service.getDocument(id);
    expect(detail).toMatchObject({ title: "Diary", shared: false, listedByTeammate: true });
    // An edit here does not refresh the teammate's entry: that would publish the private title.
    await fx.service.renameDocument(id, "Dear diary");
    expect(readEntries(team).get(id)?.title).toBe("Now ours");
    await fx.service.setTeamIndex(team.documentId, true);
    expect(fx.service.isShared(id)).toBe(false);

    // The person decides: shared here, the entry becomes theirs.
    await fx.service.shareDocument(id);
    expect(fx.service.isShared(id)).toBe(true);
    expect(readEntries(team).get(id)?.title).toBe("Dear diary");
    expect((await fx.service.getDocument(id)).listedByTeammate).toBeUndefined();
  });

  it("is ignored for a plan held from another relay's team, after a relay switch", async () => {
    fx = await makeFixture({ relayUrl: TEST_RELAY_URL });
    const oldTeam = teamIndex(fx);
    await fx.service.setTeamIndex(oldTeam.documentId, true);
    const { id } = await fx.service.createDocument({ title: "Old team's plan", shared: true });
    expect(fx.service.isShared(id)).toBe(true);

    fx.service.setRelay("wss://other.example");
    // Nothing of the old relay counts any more: neither its shares nor its team index.
    expect(fx.service.isShared(id)).toBe(false);
    expect(fx.service.isShared(oldTeam.documentId)).toBe(false);
    const newTeam = teamIndex(fx);
    await fx.service.setTeamIndex(newTeam.documentId, true);
    // The new team's list is not given the old team's shares.
    expect(readEntries(newTeam).size).toBe(0);
    newTeam.change((d) => void (d.documents[id] = teamEntry("Listed on the new team")));
    await waitFor(() => fx.changed.some((ids) => ids.includes(id)), "fx.changed.some((ids) => ids.includes(id))");
    expect(fx.service.isShared(id)).toBe(false);

    // Back on the first relay, once its team is known again, its share counts again.
    fx.service.setRelay(TEST_RELAY_URL);
    await fx.service.setTeamIndex(oldTeam.documentId, true);
    expect(fx.service.isShared(id)).toBe(true);
  });
});

describe("a shared plan a teammate deleted", () => {
  /** A teammate's plan, known here only through the team index (as on a device that did not create it). */
  async function teammatesPlan(f: Fixture, team: ReturnType<typeof teamIndex>) {
    const id = newId();
    team.change((d) => void (d.documents[id] = teamEntry("Doomed plan")));
    await waitFor(() => f.service.isShared(id), "f.service.isShared(id)");
    f.repo.import<PlanDocument>(theirPlan("Doomed plan"), { docId: id });
    await f.service.getDocument(id);
    return id;
  }

  it("stays listed here, private, and says when it left the team; its text is kept", async () => {
    fx = await makeFixture({ relayUrl: TEST_RELAY_URL });
    const team = teamIndex(fx);
    await fx.service.setTeamIndex(team.documentId, true);
    const id = await teammatesPlan(fx, team);
    expect((await fx.service.listDocuments({})).map((d) => d.id)).toContain(id);

    team.change((d) => void delete d.documents[id]);
    const listed = await waitFor(async () => (await fx.service.listDocuments({})).find((d) => d.id === id && !d.shared), "(await fx.service.listDocuments({})).find((d) => d.id === id && !d.shared)");
    expect(listed!.shared).toBe(false);
    expect(fx.service.isShared(id)).toBe(false);
    const detail = await fx.service.getDocument(id);
    expect(detail.leftTeamAt).toBeTypeOf("number");
    expect(detail.shared).toBe(false);
    expect((await fx.service.getContent(id)).markdown).toBe("their words");
  });

  it("one of this device's own plans stops being shared too, and says so", async () => {
    fx = await makeFixture({ relayUrl: TEST_RELAY_URL });
    const team = teamIndex(fx);
    await fx.service.setTeamIndex(team.documentId, true);
    const { id } = await fx.service.createDocument({ title: "Mine", shared: true });
    team.change((d) => void delete d.documents[id]);
    await waitFor(() => !fx.service.isShared(id), "!fx.service.isShared(id)");
    expect((await fx.service.getDocument(id)).leftTeamAt).toBeTypeOf("number");
    // An edit here does not put it back on the list.
    await fx.service.renameDocument(id, "Mine, renamed");
    expect(readEntries(team).has(id)).toBe(false);
  });

  it("is shared again as a copy under a new id (the relay refuses the deleted id), and the old copy leaves this device", async () => {
    fx = await makeFixture({ relayUrl: TEST_RELAY_URL });
    const team = teamIndex(fx);
    await fx.service.setTeamIndex(team.documentId, true);
    const id = await teammatesPlan(fx, team);
    team.change((d) => void delete d.documents[id]);
    await waitFor(() => !fx.service.isShared(id), "!fx.service.isShared(id)");

    const copy = await fx.service.shareDocument(id);
    expect(copy.id).not.toBe(id);
    expect(copy).toMatchObject({ title: "Doomed plan", shared: true });
    expect(readEntries(team).has(copy.id)).toBe(true);
    expect(readEntries(team).has(id)).toBe(false);
    expect((await fx.service.getContent(copy.id)).markdown).toBe("their words");
    expect((await fx.service.getDocument(copy.id)).leftTeamAt).toBeUndefined();
    expect((await fx.service.listDocuments({})).map((d) => d.id)).not.toContain(id);
    await expect(fx.service.getDocument(id)).rejects.toMatchObject({ code: "not-found" });
  });

  it("is not kept when it was deleted here", async () => {
    fx = await makeFixture({ relayUrl: TEST_RELAY_URL });
    const team = teamIndex(fx);
    await fx.service.setTeamIndex(team.documentId, true);
    const { id } = await fx.service.createDocument({ title: "Mine", shared: true });
    await fx.service.archiveDocument(id);
    await fx.service.deleteDocument(id);
    expect(readEntries(team).has(id)).toBe(false);
    expect((await fx.service.listDocuments({ archived: true })).map((d) => d.id)).not.toContain(id);
    expect((await fx.service.listDocuments({})).map((d) => d.id)).not.toContain(id);
    expect(sharedIds(fx)).toEqual([]);
  });
});
