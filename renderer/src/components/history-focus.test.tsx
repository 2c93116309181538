// @vitest-environment jsdom
/**
 * The version history panel takes the focus when a person opens it, not each time it is shown again for another
 * plan: with the panel open, a new plan's title still gets the focus, and a plan opened from the list keeps it there.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

const historyHeading = () => screen.queryByRole("heading", { name: "Version history" });

async function openWithHistory() {
  const app = renderApp();
  await app.bridge.api.createDocument({ title: "First", markdown: "one" });
  await app.bridge.api.createDocument({ title: "Second", markdown: "two" });
  const nav = screen.getByRole("navigation", { name: "Documents" });
  await until(() => within(nav).queryByText("First") !== null, "listed");
  fireEvent.click(within(nav).getByText("First"));
  await until(() => screen.queryByRole("button", { name: "Version history" }) !== null, "First open");
  fireEvent.click(screen.getByRole("button", { name: "Version history" }));
  await until(() => historyHeading() !== null && document.activeElement === historyHeading(), "the panel opened, with the focus");
  return { app, nav };
}

describe("version history and the focus", () => {
  it("a plan made with the panel open gets the focus in its title", async () => {
    const { app } = await openWithHistory();
    await app.services.documents.getState().create();
    await until(() => (screen.queryByRole("textbox", { name: "Document title" }) as HTMLInputElement | null)?.value === "Untitled plan", "the new plan");
    await until(() => document.activeElement === screen.getByRole("textbox", { name: "Document title" }), "the title focused");
    expect(historyHeading()).not.toBeNull();
    expect(document.activeElement).not.toBe(historyHeading());
  });

  it("a plan opened from the list with the panel open leaves the focus in the list", async () => {
    const { nav } = await openWithHistory();
    const second = within(nav).getByText("Second").closest("[role=option], a, button, li") as HTMLElement;
    second.focus();
    fireEvent.click(within(nav).getByText("Second"));
    await until(() => (screen.getByRole("textbox", { name: "Document title" }) as HTMLInputElement).value === "Second", "Second open");
    await until(() => historyHeading() !== null, "the panel shown for Second");
    expect(document.activeElement).not.toBe(historyHeading());
  });

  it("opening the panel again takes the focus again", async () => {
    await openWithHistory();
    fireEvent.click(screen.getByRole("button", { name: "Close version history" }));
    await until(() => historyHeading() === null, "closed");
    fireEvent.click(screen.getByRole("button", { name: "Version history" }));
    await until(() => historyHeading() !== null && document.activeElement === historyHeading(), "focused again");
  });
});
