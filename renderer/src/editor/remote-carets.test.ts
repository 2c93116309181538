// @vitest-environment jsdom
/**
 * A remote caret's name label shows when its person moves and fades REMOTE_CARET_LABEL_MS later; the same position
 * reported again (a presence heartbeat) or a caret only carried along by edits does not bring it back.
 */
import { afterEach, describe, expect, it } from "vitest";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import "../test/jsdom-layout.js";
import { REMOTE_CARET_LABEL_MS, remoteCarets, setRemoteCarets, type RemoteCaret } from "./remote-carets.js";

const views: EditorView[] = [];
afterEach(() => {
  while (views.length) views.pop()!.destroy();
});

function editor(text: string): EditorView {
  const view = new EditorView({ parent: document.body, state: EditorState.create({ doc: text, extensions: [remoteCarets] }) });
  views.push(view);
  return view;
}

const ada = (head: number): RemoteCaret => ({ peerId: "ada", name: "Ada", color: "#d9480f", anchor: head, head });
const label = (view: EditorView) => view.dom.querySelector<HTMLElement>(".cm-remote-caret-label");

describe("remote caret labels", () => {
  it("fade REMOTE_CARET_LABEL_MS after a move, and a new move shows the label again", () => {
    const view = editor("hello world");
    view.dispatch({ effects: setRemoteCarets.of([ada(5)]) });
    const first = label(view)!;
    expect(first.textContent).toBe("Ada");
    expect(first.style.animationDelay).toBe(`${REMOTE_CARET_LABEL_MS}ms`);

    // A heartbeat with the same position keeps the label's element, so its fade goes on.
    view.dispatch({ effects: setRemoteCarets.of([ada(5)]) });
    expect(label(view)).toBe(first);
    // Text typed here before the caret carries it along without showing the label again, also when the next report
    // says where it now is (presence re-reads every caret after each change).
    view.dispatch({ changes: { from: 0, insert: ">> " } });
    expect(label(view)).toBe(first);
    view.dispatch({ effects: setRemoteCarets.of([ada(8)]) });
    expect(label(view)).toBe(first);

    // Ada moves: a new element, whose fade starts over.
    view.dispatch({ effects: setRemoteCarets.of([ada(10)]) });
    expect(label(view)).not.toBe(first);
    expect(label(view)!.isConnected).toBe(true);
    expect(first.isConnected).toBe(false);
  });

  it("keeps each person's own clock: one moving does not show the other's label again", () => {
    const view = editor("hello world");
    const bo: RemoteCaret = { peerId: "bo", name: "Bo", color: "#1c7ed6", anchor: 1, head: 1 };
    view.dispatch({ effects: setRemoteCarets.of([ada(5), bo]) });
    const boLabel = [...view.dom.querySelectorAll<HTMLElement>(".cm-remote-caret-label")].find((l) => l.textContent === "Bo")!;
    view.dispatch({ effects: setRemoteCarets.of([ada(7), bo]) });
    expect(boLabel.isConnected).toBe(true);
  });
});
