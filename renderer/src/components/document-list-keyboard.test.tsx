// @vitest-environment jsdom
/**
 * The document list is one Tab stop (a grid with a roving tabindex): the arrows, Home and End move between rows,
 * ArrowRight reaches the row's actions and ArrowLeft comes back, ArrowDown in the search field enters the list and
 * ArrowUp on its first row leaves it; when the focused row goes away, the row that took its place gets the focus.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

const focused = () => document.activeElement as HTMLElement | null;
const key = (name: string) => fireEvent.keyDown(focused()!, { key: name });
const grid = () => screen.getByRole("grid", { name: "Documents" });
const openButton = (title: string) => within(grid()).getByRole("button", { name: new RegExp(`^${title}`) });
/** The elements of the list that Tab can reach. */
const tabStops = () => [...grid().querySelectorAll<HTMLElement>("button, input")].filter((el) => el.tabIndex >= 0);

async function threeDocuments() {
  const app = renderApp();
  // Newest first: the list shows Gamma, Beta, Alpha.
  for (const title of ["Alpha", "Beta", "Gamma"]) await app.bridge.api.createDocument({ title });
  await until(() => screen.queryAllByRole("row").length === 3, "three rows");
  return app;
}

describe("document list keyboard", () => {
  it("is one Tab stop; arrows, Home and End move between rows, and the Tab stop follows", async () => {
    await threeDocuments();
    expect(screen.getAllByRole("gridcell")).toHaveLength(6);
    expect(tabStops()).toEqual([openButton("Gamma")]);

    fireEvent.keyDown(screen.getByRole("searchbox", { name: "Search documents" }), { key: "ArrowDown" });
    expect(focused()).toBe(openButton("Gamma"));
    key("ArrowDown");
    expect(focused()).toBe(openButton("Beta"));
    expect(tabStops()).toEqual([openButton("Beta")]);
    key("End");
    expect(focused()).toBe(openButton("Alpha"));
    key("ArrowDown");
    expect(focused()).toBe(openButton("Alpha"));
    key("Home");
    expect(focused()).toBe(openButton("Gamma"));
    key("ArrowUp");
    expect(focused()).toBe(screen.getByRole("searchbox", { name: "Search documents" }));
  });

  it("ArrowRight reaches the row's actions (whose arrows open its menu), ArrowLeft comes back", async () => {
    await threeDocuments();
    openButton("Beta").focus();
    key("ArrowRight");
    const actions = within(grid()).getByRole("button", { name: "More actions for Beta" });
    expect(focused()).toBe(actions);
    key("ArrowDown");
    expect(screen.getByRole("menu", { name: "Actions for Beta" })).toBeTruthy();
    key("Escape");
    expect(focused()).toBe(actions);
    key("ArrowLeft");
    expect(focused()).toBe(openButton("Beta"));
  });

  it("when the focused row is archived, the next row takes the focus (not the page)", async () => {
    const { bridge } = await threeDocuments();
    openButton("Beta").focus();
    key("ArrowRight");
    key("ArrowDown");
    fireEvent.click(screen.getByRole("menuitem", { name: "Archive" }));
    await until(() => screen.queryAllByRole("row").length === 2, "Beta archived");
    expect([...bridge.docs.values()].find((d) => d.title === "Beta")?.archivedAt).not.toBeNull();
    await until(() => focused() === openButton("Alpha"), "focus on the row that took Beta's place");
    expect(tabStops()).toEqual([openButton("Alpha")]);
  });
});
