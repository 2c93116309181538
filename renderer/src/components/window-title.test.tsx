// @vitest-environment jsdom
/** The window title names the open plan, follows a rename, and goes back to the app's name when nothing is open. */
import { afterEach, describe, expect, it } from "vitest";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import { windowTitle } from "./window-title.js";

afterEach(cleanupApps);

describe("the window title", () => {
  it("is the open plan's title and the app's name, follows a rename, and is the app's name alone with none open", async () => {
    const { services, bridge } = renderApp();
    await until(() => document.title === "Chopin", "the app's name at first");
    const doc = await bridge.api.createDocument({ title: "Launch plan" });
    await services.documents.getState().open(doc.id);
    await until(() => document.title === "Launch plan — Chopin", "the plan's title");
    await services.documents.getState().rename(doc.id, "Launch plan v2");
    await until(() => document.title === "Launch plan v2 — Chopin", "the new title");
    await services.documents.getState().open(null);
    await until(() => document.title === "Chopin", "the app's name again");
  });

  it("reads Untitled for an empty title", () => {
    expect(windowTitle("  ")).toBe("Untitled — Chopin");
    expect(windowTitle(null)).toBe("Chopin");
  });
});
