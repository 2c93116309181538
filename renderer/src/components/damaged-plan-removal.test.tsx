// @vitest-environment jsdom
/**
 * A plan whose stored copy cannot be read is refused with 'storage-failure', and it could not be archived, so it
 * stayed in the list for good. The refusal's banner offers to remove it: after a confirmation, as every delete asks,
 * it calls the ordinary delete and the plan leaves the list; Cancel removes nothing.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import { ChopinError } from "../../../shared/errors.js";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

const DAMAGED = "This device's stored copy of that document could not be read; it may be damaged. It stays in storage as it is.";

async function openDamaged() {
  const deleted: string[] = [];
  let damagedId = "";
  const app = renderApp((b) => {
    const { getDocument, archiveDocument, deleteDocument } = b.api;
    b.api.getDocument = async (id) => {
      if (id === damagedId) throw new ChopinError("storage-failure", DAMAGED, { damaged: true });
      return getDocument(id);
    };
    // The core removes a damaged plan unarchived; the memory bridge's delete wants it archived.
    b.api.deleteDocument = async (id) => {
      deleted.push(id);
      await archiveDocument(id);
      await deleteDocument(id);
    };
  });
  const doc = await app.bridge.api.createDocument({ title: "Damaged" });
  await app.bridge.api.createDocument({ title: "Fine" });
  damagedId = doc.id;
  await app.services.documents.getState().refresh();
  await app.services.documents.getState().open(doc.id);
  await until(() => screen.queryByRole("button", { name: "Remove from this device" }) !== null, "the damaged plan's banner");
  expect(screen.getByRole("alert").textContent).toContain("could not be read");
  return { ...app, doc, deleted };
}

const titles = (app: Awaited<ReturnType<typeof openDamaged>>) => app.services.documents.getState().documents.map((d) => d.title).sort();

describe("the damaged plan's banner", () => {
  it("removes the plan from this device once confirmed: delete is called and it leaves the list", async () => {
    const app = await openDamaged();
    expect(titles(app)).toEqual(["Damaged", "Fine"]);
    fireEvent.click(screen.getByRole("button", { name: "Remove from this device" }));
    await until(() => screen.queryByRole("dialog", { name: "Remove damaged document?" }) !== null, "the question");
    expect(app.deleted).toEqual([]);
    fireEvent.click(within(screen.getByRole("dialog", { name: "Remove damaged document?" })).getByRole("button", { name: "Remove" }));
    await until(() => app.deleted.length === 1, "the delete");
    expect(app.deleted).toEqual([app.doc.id]);
    await until(() => titles(app).length === 1, "the plan gone from the list");
    expect(titles(app)).toEqual(["Fine"]);
    await until(() => screen.queryByRole("button", { name: "Remove from this device" }) === null, "the banner gone");
  });

  it("removes nothing on Cancel", async () => {
    const app = await openDamaged();
    fireEvent.click(screen.getByRole("button", { name: "Remove from this device" }));
    await until(() => screen.queryByRole("dialog", { name: "Remove damaged document?" }) !== null, "the question");
    fireEvent.click(within(screen.getByRole("dialog", { name: "Remove damaged document?" })).getByRole("button", { name: "Cancel" }));
    await until(() => screen.queryByRole("dialog", { name: "Remove damaged document?" }) === null, "the question closed");
    expect(app.deleted).toEqual([]);
    expect(titles(app)).toEqual(["Damaged", "Fine"]);
  });

  it("is not offered for other failures", async () => {
    const app = renderApp();
    const doc = await app.bridge.api.createDocument({ title: "Plan" });
    await app.services.documents.getState().refresh();
    await app.services.documents.getState().rename(doc.id, "");
    await until(() => screen.queryByRole("alert") !== null, "the notice");
    expect(screen.queryByRole("button", { name: "Remove from this device" })).toBeNull();
  });

  it("is not offered for a write a full disk refused (the same code, a plan that is fine)", async () => {
    const app = renderApp((b) => {
      b.api.renameDocument = async () => {
        throw new ChopinError("storage-failure", "Chopin cannot write to its database because the disk is full: free some space.", {
          sqliteCode: "SQLITE_FULL",
        });
      };
    });
    const doc = await app.bridge.api.createDocument({ title: "Plan" });
    await app.services.documents.getState().refresh();
    await app.services.documents.getState().rename(doc.id, "Renamed");
    await until(() => screen.queryByRole("alert") !== null, "the notice");
    expect(screen.getByRole("alert").textContent).toContain("the disk is full");
    expect(screen.queryByRole("button", { name: "Remove from this device" })).toBeNull();
  });

  it("offers the team's copy for a damaged shared plan: the core fetches it, and the plan opens, still listed", async () => {
    let damagedId = "";
    const asked: string[] = [];
    const app = renderApp((b) => {
      b.settings.relayUrl = "ws://127.0.0.1:1";
      const { getDocument, restoreDamagedFromTeam } = b.api;
      b.api.getDocument = async (id) => {
        if (id === damagedId) throw new ChopinError("storage-failure", DAMAGED, { damaged: true });
        return getDocument(id);
      };
      b.api.restoreDamagedFromTeam = async (id) => {
        asked.push(id);
        damagedId = "";
        return restoreDamagedFromTeam(id);
      };
    });
    const doc = await app.bridge.api.createDocument({ title: "Team plan", shared: true });
    damagedId = doc.id;
    await app.services.documents.getState().refresh();
    await app.services.documents.getState().open(doc.id);
    await until(() => screen.queryByRole("button", { name: "Get the team’s copy" }) !== null, "the offer");
    expect(screen.getByRole("button", { name: "Remove from this device" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Get the team’s copy" }));
    await until(() => app.services.documents.getState().selected?.id === doc.id, "the plan open");
    expect(asked).toEqual([doc.id]);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(app.services.documents.getState().documents.map((d) => d.title)).toEqual(["Team plan"]);
  });

  it("does not offer the team's copy for a damaged private plan (no other copy exists)", async () => {
    const app = await openDamaged();
    expect(screen.queryByRole("button", { name: "Get the team’s copy" })).toBeNull();
    expect(app.services.documents.getState().documents.find((d) => d.id === app.doc.id)?.shared).toBe(false);
  });
});
