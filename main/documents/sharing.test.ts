import { afterEach, describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import type { DocumentId } from "@automerge/automerge-repo";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import type { WorkspaceIndex } from "../../shared/schema/workspace-index.js";
import { listShared } from "../store/document-sharing.js";
import { makeFixture, waitFor, type Fixture } from "./test-fixture.js";
import { newIndex, readEntries } from "./workspace-index.js";

let fx: Fixture;
afterEach(async () => {
  await fx?.close();
});

function teamIndex(f: Fixture) {
  return f.repo.create<WorkspaceIndex>(newIndex("team"));
}

describe("sharing", () => {
  it("private -> shared once; never the reverse", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "T" });
    expect(fx.service.isShared(id)).toBe(false);
    expect((await fx.service.shareDocument(id)).shared).toBe(true);
    expect(fx.service.isShared(id)).toBe(true);
    await expect(fx.service.shareDocument(id)).rejects.toMatchObject({ code: "already-shared" });
    expect((await fx.service.getDocument(id)).shared).toBe(true);
  });

  it("defaults new documents to shared when a relay is configured; explicit choice wins", async () => {
    fx = await makeFixture();
    expect((await fx.service.createDocument({})).shared).toBe(false);
    fx.service.setDefaultShared(true);
    expect((await fx.service.createDocument({})).shared).toBe(true);
    expect((await fx.service.createDocument({ shared: false })).shared).toBe(false);
  });

  it("a share made before the team index is known is entered on setTeamIndex (and again on every call)", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "Early", shared: true });
    const priv = await fx.service.createDocument({ title: "Private" });
    expect(listShared(fx.db).map((r) => r.documentId)).toEqual([id]);
    const team = teamIndex(fx);
    await fx.service.setTeamIndex(team.documentId);
    expect([...readEntries(team).keys()]).toEqual([id]);
    expect(readEntries(team).get(id)?.title).toBe("Early");
    expect(fx.service.isShared(team.documentId)).toBe(true);
    expect(fx.service.isShared(priv.id)).toBe(false);
    // Someone removed it from the team index: the next setTeamIndex puts it back.
    team.change((d) => void delete d.documents[id]);
    await fx.service.setTeamIndex(team.documentId);
    expect(readEntries(team).has(id)).toBe(true);
  });

  it("shares go straight into a known team index, and renames refresh the team entry", async () => {
    fx = await makeFixture();
    const team = teamIndex(fx);
    await fx.service.setTeamIndex(team.documentId);
    const { id } = await fx.service.createDocument({ title: "Doc" });
    expect(readEntries(team).has(id)).toBe(false);
    await fx.service.shareDocument(id);
    expect(readEntries(team).get(id)?.title).toBe("Doc");
    await fx.service.renameDocument(id, "Renamed");
    expect(readEntries(team).get(id)?.title).toBe("Renamed");
  });

  it("lists documents teammates shared through the team index", async () => {
    fx = await makeFixture();
    const team = teamIndex(fx);
    await fx.service.setTeamIndex(team.documentId);
    // A teammate's document arrives (as sync would deliver it) and the team index names it.
    const theirs = A.change(A.init<PlanDocument>(), (d) => {
      Object.assign(d, {
        schemaVersion: 1, kind: "plan", title: "Their plan", text: "hi", repository: null, createdVia: "app",
        provenance: null, brief: null, archivedAt: null, createdAt: 5, updatedAt: 5, authors: {},
      });
    });
    const handle = fx.repo.import<PlanDocument>(A.save(theirs));
    fx.changed.length = 0;
    team.change((d) => {
      d.documents[handle.documentId] = { title: "Their plan", createdVia: "app", archivedAt: null, createdAt: 5, updatedAt: 5 };
    });
    await waitFor(() => fx.changed.some((ids) => ids.includes(handle.documentId)));
    const listed = await fx.service.listDocuments();
    expect(listed.find((d) => d.id === handle.documentId)).toMatchObject({ title: "Their plan", shared: true });
    expect(fx.service.isShared(handle.documentId)).toBe(true);
    expect((await fx.service.getDocument(handle.documentId)).title).toBe("Their plan");
    // Detaching the team index hides them again.
    await fx.service.setTeamIndex(null);
    expect((await fx.service.listDocuments()).some((d) => d.id === handle.documentId)).toBe(false);
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

describe("a shared plan a teammate deleted", () => {
  /** A teammate's plan, known here only through the team index (as on a device that did not create it). */
  async function teammatesPlan(f: Fixture, team: ReturnType<typeof teamIndex>) {
    const other = await f.service.createDocument({ title: "Doomed plan", markdown: "their text", shared: true });
    const id = other.id;
    // Seen from this device it was never in the local index: only the team's list names it.
    const local = await f.repo.find<WorkspaceIndex>(f.service.localIndexId);
    local.change((d) => void delete d.documents[id]);
    expect(readEntries(team).has(id)).toBe(true);
    return id;
  }

  it("stays listed here, private, and says when it left the team; its text is kept", async () => {
    fx = await makeFixture();
    const team = teamIndex(fx);
    await fx.service.setTeamIndex(team.documentId);
    const id = await teammatesPlan(fx, team);
    expect((await fx.service.listDocuments({})).map((d) => d.id)).toContain(id);

    team.change((d) => void delete d.documents[id]);
    const listed = await waitFor(async () => (await fx.service.listDocuments({})).find((d) => d.id === id));
    expect(listed!.shared).toBe(false);
    const detail = await fx.service.getDocument(id);
    expect(detail.leftTeamAt).toBeTypeOf("number");
    expect(detail.shared).toBe(false);
    expect((await fx.service.getContent(id)).markdown).toBe("their text");

    // Shared again: back on the team's list, and no longer said to have left it.
    await fx.service.shareDocument(id);
    expect(readEntries(team).has(id)).toBe(true);
    expect((await fx.service.getDocument(id)).leftTeamAt).toBeUndefined();
  });

  it("is not kept when it was deleted here", async () => {
    fx = await makeFixture();
    const team = teamIndex(fx);
    await fx.service.setTeamIndex(team.documentId);
    const { id } = await fx.service.createDocument({ title: "Mine", shared: true });
    await fx.service.archiveDocument(id);
    await fx.service.deleteDocument(id);
    expect(readEntries(team).has(id)).toBe(false);
    expect((await fx.service.listDocuments({ archived: true })).map((d) => d.id)).not.toContain(id);
    expect((await fx.service.listDocuments({})).map((d) => d.id)).not.toContain(id);
  });
});
