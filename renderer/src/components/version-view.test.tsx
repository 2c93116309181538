// @vitest-environment jsdom
/**
 * The version view marks the lines that version added or changed against the one before it, and offers no restore
 * for the latest version (it is what the document holds).
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

const MARKDOWN: Record<string, string> = { v1: "# Plan\none", v2: "# Plan\none\ntwo" };

async function openHistory() {
  const app = renderApp((b) => {
    b.api.readVersion = async (_id, versionId) => ({ id: versionId, title: "Plan", markdown: MARKDOWN[versionId] });
  });
  const doc = await app.bridge.api.createDocument({ title: "Plan" });
  app.bridge.versions.set(doc.id, [
    { id: "v2", heads: [], authors: ["Ada"], at: 2, summary: "+4 characters", changeCount: 1 },
    { id: "v1", heads: [], authors: ["Ada"], at: 1, summary: "Created", changeCount: 1 },
  ]);
  const nav = screen.getByRole("navigation", { name: "Documents" });
  await until(() => within(nav).queryByText("Plan") !== null, "listed");
  fireEvent.click(within(nav).getByText("Plan"));
  await until(() => screen.queryByRole("button", { name: "Version history" }) !== null, "the document header");
  fireEvent.click(screen.getByRole("button", { name: "Version history" }));
  await until(() => screen.queryByText(/Latest ·/) !== null, "the versions");
  return screen.getByRole("region", { name: "Version history" });
}

describe("the version history panel", () => {
  it("takes the focus when it opens, on its heading", async () => {
    await openHistory();
    expect(document.activeElement?.textContent).toBe("Version history");
    expect(document.activeElement?.tagName).toBe("H2");
  });
});

describe("the version view", () => {
  it("marks what the version changed, and says the latest is current instead of offering a restore", async () => {
    const panel = await openHistory();
    fireEvent.click(within(panel).getAllByRole("button").find((b) => b.textContent?.includes("Latest"))!);
    await until(() => document.querySelector(".version-viewer") !== null, "the version view");
    await until(() => document.querySelectorAll(".cm-version-changed").length === 1, "one marked line");
    expect(document.querySelector(".cm-version-changed")!.textContent).toBe("two");
    expect(document.querySelector(".version-banner")!.textContent).toContain("1 line this version added or changed, marked");
    expect(screen.getByText("This is the current version")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Restore this version" })).toBeNull();
  });

  it("marks nothing in the first version, and offers a restore for an older one", async () => {
    const panel = await openHistory();
    fireEvent.click(within(panel).getAllByRole("button").find((b) => b.textContent?.includes("Created"))!);
    await until(() => screen.queryByRole("button", { name: "Restore this version" }) !== null, "the restore button");
    expect(document.querySelectorAll(".cm-version-changed")).toHaveLength(0);
  });
});
