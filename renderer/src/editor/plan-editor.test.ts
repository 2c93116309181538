// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { Repo } from "@automerge/automerge-repo";
import { searchPanelOpen } from "@codemirror/search";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import "../test/jsdom-layout.js";
import { createPlanEditor } from "./plan-editor.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

describe("plan editor", () => {
  it("Mod+F opens find and replace inside the document, with named fields", async () => {
    const repo = new Repo({ network: [] });
    const handle = repo.create<PlanDocument>({ text: "alpha beta alpha" } as PlanDocument);
    await handle.whenReady();
    const parent = document.createElement("div");
    document.body.append(parent);
    const view = createPlanEditor({ parent, handle });
    cleanups.push(() => {
      view.destroy();
      parent.remove();
    });
    expect(searchPanelOpen(view.state)).toBe(false);
    view.contentDOM.dispatchEvent(new KeyboardEvent("keydown", { key: "f", ctrlKey: true, bubbles: true, cancelable: true }));
    expect(searchPanelOpen(view.state)).toBe(true);
    const find = parent.querySelector<HTMLInputElement>("input[main-field]");
    expect(find?.getAttribute("aria-label") ?? find?.placeholder).toMatch(/find/i);
  });
});
