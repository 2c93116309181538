// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import { history, undo, undoDepth } from "@codemirror/commands";
import { EditorState, type Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { DocHandle } from "@automerge/automerge-repo";
import "../test/jsdom-layout.js";
import { textSync } from "./text-sync.js";
import { linkedRepos } from "../test/linked-repos.js";
import { waitFor } from "../test/wait-for.js";
import { remoteEditsOutsideHistory } from "./remote-edits-outside-history.js";

type Doc = { text: string };
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** A remote person (core side) and this window (replica side) on the same document, the editor bound to the replica. */
async function setup(extra: Extension[]) {
  const { core, replica, close } = linkedRepos();
  cleanups.push(close);
  const remote = core.create<Doc>({ text: "hello" });
  const mine = await replica.find<Doc>(remote.url);
  const view = new EditorView({
    state: EditorState.create({
      doc: mine.doc().text,
      extensions: [history(), textSync(mine as DocHandle<unknown>), ...extra],
    }),
    parent: document.body,
  });
  cleanups.push(() => view.destroy());
  return { remote, mine, view };
}

async function typeThenReceiveRemoteEdit(remote: DocHandle<Doc>, view: EditorView) {
  view.dispatch({ changes: { from: 5, insert: " world" }, userEvent: "input.type" });
  await waitFor(() => remote.doc().text === "hello world", 10_000, "local typing to reach the remote");
  remote.change((d) => A.splice(d, ["text"], 0, 0, "REMOTE "));
  await waitFor(() => view.state.doc.toString() === "REMOTE hello world", 10_000, "remote edit in the editor");
}

describe("undo with a collaborator", () => {
  it("undoes only this window's typing and never a remote edit", async () => {
    const { remote, mine, view } = await setup([remoteEditsOutsideHistory]);
    await typeThenReceiveRemoteEdit(remote, view);
    expect(undoDepth(view.state)).toBe(1);

    expect(undo(view)).toBe(true);
    expect(view.state.doc.toString()).toBe("REMOTE hello");
    expect(mine.doc().text).toBe("REMOTE hello");
    await waitFor(() => remote.doc().text === "REMOTE hello", 10_000, "the undo to reach the remote");

    // Nothing of ours is left to undo; the remote edit stays.
    expect(undoDepth(view.state)).toBe(0);
    expect(undo(view)).toBe(false);
    expect(view.state.doc.toString()).toBe("REMOTE hello");
  });

  it("without the fix the plugin puts remote edits into the undo history (the bug this guards)", async () => {
    const { remote, view } = await setup([]);
    await typeThenReceiveRemoteEdit(remote, view);
    undo(view);
    expect(view.state.doc.toString()).toBe("hello world");
  });
});
