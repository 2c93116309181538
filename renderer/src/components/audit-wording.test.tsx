// @vitest-environment jsdom
/**
 * What the window says: search snippets without Markdown syntax, and "Bind
 * repository" disabled with its reason while GitHub sign-in is not set up (rather than a dialog that can only say no).
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import { GITHUB_NOT_SET_UP_REASON } from "./RepositoryControl.js";

afterEach(cleanupApps);

async function openPlan(app: ReturnType<typeof renderApp>) {
  const doc = await app.bridge.api.createDocument({ title: "Plan" });
  const nav = screen.getByRole("navigation", { name: "Documents" });
  await until(() => within(nav).queryByText("Plan") !== null, "listed");
  fireEvent.click(within(nav).getByText("Plan"));
  await until(() => screen.queryByRole("group", { name: "Repository" }) !== null, "the document header");
  return doc;
}

describe("wording", () => {
  it("shows a body match's snippet without Markdown syntax", async () => {
    const { bridge } = renderApp((b) => {
      const list = b.api.listDocuments.bind(b.api);
      b.api.listDocuments = async (query) => (await list(query)).map((d) => ({ ...d, matchSnippet: "# Design 7 - [ ] **Body** 7…" }));
    });
    await bridge.api.createDocument({ title: "Design 7" });
    await until(() => document.querySelector(".doc-snippet") !== null, "the snippet");
    expect(document.querySelector(".doc-snippet")!.textContent).toBe("Design 7 Body 7…");
  });

  it("while GitHub sign-in is not set up, 'Bind repository' is disabled, says why, and opens nothing", async () => {
    const app = renderApp((b) => void (b.auth = { ...b.auth, state: "not-configured" }));
    await openPlan(app);
    const group = screen.getByRole("group", { name: "Repository" });
    await until(() => within(group).getByRole("button", { name: "Bind repository" }).getAttribute("aria-disabled") === "true", "disabled");
    const bind = within(group).getByRole("button", { name: "Bind repository", description: GITHUB_NOT_SET_UP_REASON });
    fireEvent.click(bind);
    expect(screen.queryByRole("dialog", { name: "Bind repository" })).toBeNull();
  });
});
