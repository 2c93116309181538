// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { SearchQuery, searchPanelOpen } from "@codemirror/search";
import { EditorState } from "@codemirror/state";
import { MAX_FIND_MATCHES_COUNTED } from "../limits.js";
import { matchPosition, matchWords } from "./find-panel.js";
import type { MirrorEnd } from "../mirror/editor-mirror.js";
import "../test/jsdom-layout.js";
import { createPlanEditor } from "./plan-editor.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** The editor's keys and panels need no document behind it: its mirror's authority never answers here. */
const silentMirror: MirrorEnd = { post: () => undefined, listen: () => () => undefined };

async function editorWith(text: string) {
  const parent = document.createElement("div");
  document.body.append(parent);
  const view = createPlanEditor({ parent, text, mirror: silentMirror });
  cleanups.push(() => {
    view.destroy();
    parent.remove();
  });
  return { view, parent };
}

const key = (target: EventTarget, init: KeyboardEventInit) =>
  target.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init }));

describe("plan editor", () => {
  it("Mod+F opens find and replace inside the document, with named fields", async () => {
    const { view, parent } = await editorWith("alpha beta alpha");
    expect(searchPanelOpen(view.state)).toBe(false);
    view.contentDOM.dispatchEvent(new KeyboardEvent("keydown", { key: "f", ctrlKey: true, bubbles: true, cancelable: true }));
    expect(searchPanelOpen(view.state)).toBe(true);
    const find = parent.querySelector<HTMLInputElement>("input[main-field]");
    expect(find?.getAttribute("aria-label") ?? find?.placeholder).toMatch(/find/i);
  });

  it("the find panel names its controls, counts where the selection is among the matches, and closes on Escape", async () => {
    const { view, parent } = await editorWith("alpha beta alpha gamma alpha");
    key(view.contentDOM, { key: "f", ctrlKey: true });
    const panel = parent.querySelector<HTMLElement>("[role=search][aria-label='Find and replace']")!;
    const named = [...panel.querySelectorAll("button")].map((b) => b.getAttribute("aria-label"));
    expect(named).toEqual(["Close find and replace", "Previous match", "Next match", "Select all matches", "Replace this match", "Replace all matches"]);
    expect([...panel.querySelectorAll("label")].map((l) => l.textContent)).toEqual(["Match case", "Regular expression", "Whole word"]);
    const find = panel.querySelector<HTMLInputElement>("input[aria-label=Find]")!;
    expect(document.activeElement).toBe(find);
    const count = panel.querySelector("[role=status]")!;
    find.value = "alpha";
    find.dispatchEvent(new Event("input"));
    expect(count.textContent).toBe("3 matches");
    key(find, { key: "Enter" });
    expect(count.textContent).toMatch(/^\d of 3$/);
    const first = count.textContent;
    key(find, { key: "Enter" });
    expect(count.textContent).not.toBe(first);
    find.value = "zeta";
    find.dispatchEvent(new Event("input"));
    expect(count.textContent).toBe("No matches");
    key(find, { key: "Escape" });
    expect(searchPanelOpen(view.state)).toBe(false);
  });

  it("Mod+Shift+F with Caps Lock on (a shifted lowercase f) is the app's search, not the editor's find", async () => {
    const { view } = await editorWith("alpha");
    key(view.contentDOM, { key: "f", ctrlKey: true, shiftKey: true });
    expect(searchPanelOpen(view.state)).toBe(false);
  });
});

describe("matchPosition", () => {
  it("stops counting at MAX_FIND_MATCHES_COUNTED and says so", () => {
    const state = EditorState.create({ doc: "a".repeat(MAX_FIND_MATCHES_COUNTED + 5) });
    const capped = matchPosition(state, new SearchQuery({ search: "a" }));
    expect(capped).toMatchObject({ total: MAX_FIND_MATCHES_COUNTED, capped: true });
    expect(matchWords(new SearchQuery({ search: "a" }), capped)).toBe(`${MAX_FIND_MATCHES_COUNTED}+ matches`);
    const exact = matchPosition(EditorState.create({ doc: "a".repeat(MAX_FIND_MATCHES_COUNTED) }), new SearchQuery({ search: "a" }));
    expect(exact).toMatchObject({ total: MAX_FIND_MATCHES_COUNTED, capped: true });
    const under = matchPosition(EditorState.create({ doc: "a".repeat(MAX_FIND_MATCHES_COUNTED - 1) }), new SearchQuery({ search: "a" }));
    expect(under).toMatchObject({ total: MAX_FIND_MATCHES_COUNTED - 1, capped: false });
    expect(matchWords(new SearchQuery({ search: "(" , regexp: true }), matchPosition(state, new SearchQuery({ search: "(", regexp: true })))).toBe("Not a valid pattern");
  });
});
