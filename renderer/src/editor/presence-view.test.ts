// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { EditorSelection } from "@codemirror/state";
import "../test/jsdom-layout.js";
import type { MirrorEnd } from "../mirror/editor-mirror.js";
import { createPlanEditor } from "./plan-editor.js";
import { presenceView } from "./presence-view.js";
import { remoteCaretsField } from "./remote-carets.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** An editor whose authority never confirms: everything typed stays unconfirmed. */
function editorWithPresence(text: string) {
  const silent: MirrorEnd = { post: () => undefined, listen: () => () => undefined };
  const sent: [number, number, number][] = [];
  const presence = presenceView((version, anchor, head) => sent.push([version, anchor, head]));
  const parent = document.createElement("div");
  document.body.append(parent);
  const view = createPlanEditor({ parent, text, mirror: silent, extensions: [presence.extension] });
  cleanups.push(() => {
    view.destroy();
    parent.remove();
  });
  return { view, presence, sent };
}
const settle = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe("presence in the editor", () => {
  it("maps a caret reported for the synced version over this editor's unconfirmed edits", () => {
    const { view, presence } = editorWithPresence("0123456789");
    view.dispatch({ changes: { from: 0, insert: "abc" }, userEvent: "input.type" });
    presence.show(0, [{ peerId: "p", name: "Ada", color: "#d9480f", anchor: 8, head: 8 }]);
    expect(view.state.field(remoteCaretsField).map((c) => [c.anchor, c.head])).toEqual([[11, 11]]);
  });

  it("clamps a caret reported for a version it is not at, never past the end", () => {
    const { view, presence } = editorWithPresence("short");
    presence.show(7, [{ peerId: "p", name: "Ada", color: "#d9480f", anchor: 99, head: 2 }]);
    expect(view.state.field(remoteCaretsField).map((c) => [c.anchor, c.head])).toEqual([[5, 2]]);
  });

  it("sends its own selection as positions at the synced version, mapped back over unconfirmed edits", async () => {
    const { view, sent } = editorWithPresence("0123456789");
    await settle();
    expect(sent.at(-1)).toEqual([0, 0, 0]);
    view.dispatch({ changes: { from: 0, insert: "abc" }, userEvent: "input.type" });
    view.dispatch({ selection: EditorSelection.range(5, 13) });
    await settle();
    // "abc" is not confirmed: 5 is "01" past it (2 in the synced text), 13 is the end (10).
    expect(sent.at(-1)).toEqual([0, 2, 10]);
  });
});
