// @vitest-environment jsdom
/**
 * Restoring an older version takes out what was written after it. When teammates wrote some of that, the restore
 * asks first and names them (UX audit: a restore removed a teammate's text without a word); with only this person's
 * own later changes it restores at once, as before.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import { restoreWords } from "./VersionViewer.js";

afterEach(cleanupApps);

async function viewOldest(authorsAfter: string[]) {
  const app = renderApp((b) => {
    b.api.readVersion = async (_id, versionId) => ({ id: versionId, title: "Plan", markdown: versionId });
  });
  await until(() => app.services.session.getState().identity !== null, "who I am");
  const me = app.services.session.getState().identity!.displayName;
  const doc = await app.bridge.api.createDocument({ title: "Plan" });
  app.bridge.versions.set(doc.id, [
    ...authorsAfter.map((name, i) => ({ id: `v${i + 2}`, heads: [`heads-of-v${i + 2}`], authors: [name === "me" ? me : name], at: 10 - i, summary: "+1 characters", changeCount: 1 })),
    { id: "v1", heads: [], authors: [me], at: 1, summary: "Created", changeCount: 1 },
  ]);
  await app.services.documents.getState().open(doc.id);
  await until(() => screen.queryByRole("button", { name: "Version history" }) !== null, "the document header");
  fireEvent.click(screen.getByRole("button", { name: "Version history" }));
  await until(() => screen.queryByText(/Created/) !== null, "the versions");
  const panel = screen.getByRole("region", { name: "Version history" });
  fireEvent.click(within(panel).getAllByRole("button").find((b) => b.textContent?.includes("Created"))!);
  await until(() => screen.queryByRole("button", { name: "Restore this version" }) !== null, "the restore button");
  return { ...app, doc };
}

const restored = (bridge: ReturnType<typeof renderApp>["bridge"]) => bridge.calls.filter((c) => c.method === "restoreVersion");

describe("restoring a version", () => {
  it("asks first, naming the teammates whose later changes it takes out; Cancel restores nothing", async () => {
    const { bridge } = await viewOldest(["Bob", "me", "Carol", "Bob"]);
    fireEvent.click(screen.getByRole("button", { name: "Restore this version" }));
    await until(() => screen.queryByRole("dialog", { name: "Restore this version?" }) !== null, "the question");
    const dialog = screen.getByRole("dialog", { name: "Restore this version?" });
    expect(dialog.textContent).toContain(restoreWords(["Bob", "Carol"]));
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await until(() => screen.queryByRole("dialog", { name: "Restore this version?" }) === null, "the question closed");
    expect(restored(bridge)).toEqual([]);

    fireEvent.click(screen.getByRole("button", { name: "Restore this version" }));
    await until(() => screen.queryByRole("dialog", { name: "Restore this version?" }) !== null, "the question again");
    fireEvent.click(within(screen.getByRole("dialog", { name: "Restore this version?" })).getByRole("button", { name: "Restore" }));
    await until(() => restored(bridge).length === 1, "restored");
  });

  it("once confirmed, puts the focus on the version's row in the history panel, as a restore without asking does", async () => {
    const { bridge } = await viewOldest(["Bob"]);
    const row = () => within(screen.getByRole("region", { name: "Version history" })).getAllByRole("button").find((b) => b.textContent?.includes("Created"));
    // Pressed as a person does: the focus on each button first (fireEvent.click alone moves no focus).
    const press = (button: HTMLElement) => {
      button.focus();
      fireEvent.click(button);
    };
    press(screen.getByRole("button", { name: "Restore this version" }));
    await until(() => screen.queryByRole("dialog", { name: "Restore this version?" }) !== null, "the question");
    press(within(screen.getByRole("dialog", { name: "Restore this version?" })).getByRole("button", { name: "Restore" }));
    await until(() => restored(bridge).length === 1 && screen.queryByRole("dialog", { name: "Restore this version?" }) === null, "restored");
    await until(() => document.activeElement === row(), "the focus on the version's row");
  });

  it("restores at once when only this person wrote after the version", async () => {
    const { bridge } = await viewOldest(["me"]);
    fireEvent.click(screen.getByRole("button", { name: "Restore this version" }));
    await until(() => restored(bridge).length === 1, "restored");
    // As of the newest version the person saw: what anyone writes after that is merged, not taken out.
    expect(restored(bridge)[0].args).toEqual([expect.any(String), "v1", ["heads-of-v2"]]);
    expect(screen.queryByRole("dialog", { name: "Restore this version?" })).toBeNull();
  });

  it("names up to three people, then counts the rest", () => {
    expect(restoreWords(["Bob"])).toBe("Restoring takes out what was written after this version, including changes by Bob. Every version stays in the history, so nothing is lost.");
    expect(restoreWords(["Bob", "Carol"])).toContain("changes by Bob and Carol.");
    expect(restoreWords(["A", "B", "C"])).toContain("changes by A, B and C.");
    expect(restoreWords(["A", "B", "C", "D", "E"])).toContain("changes by A, B, C and 2 others.");
  });
});
