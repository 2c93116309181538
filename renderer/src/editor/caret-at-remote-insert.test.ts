// @vitest-environment jsdom
/**
 * Text someone else inserts exactly at this person's caret (an agent appending over MCP while they type at the end, a
 * teammate at the same spot) goes after the caret: their next key continues what they were typing. The stock binding
 * put the caret after the insertion, so a word typed at the end was split around an agent's append (UX audit; fixed
 * by patches/@automerge+automerge-codemirror+0.2.0.patch).
 */
import { afterEach, describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { DocHandle } from "@automerge/automerge-repo";
import "../test/jsdom-layout.js";
import { textSync } from "./text-sync.js";
import { linkedRepos } from "../test/linked-repos.js";
import { waitFor } from "../test/wait-for.js";

type Doc = { text: string };
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** The other side's handle and this window's editor on `text`, caret at `caret`. */
async function bound(text: string, caret: number): Promise<{ remote: DocHandle<Doc>; view: EditorView }> {
  const { core, replica, close } = linkedRepos();
  cleanups.push(close);
  const remote = core.create<Doc>({ text });
  const mine = await replica.find<Doc>(remote.url);
  const view = new EditorView({
    state: EditorState.create({ doc: mine.doc().text, selection: { anchor: caret }, extensions: [textSync(mine as DocHandle<unknown>)] }),
    parent: document.body,
  });
  cleanups.push(() => view.destroy());
  return { remote, view };
}

describe("a remote insertion at the caret", () => {
  it("lands after the caret, so the next key continues the person's word", async () => {
    const { remote, view } = await bound("contin", 6);

    remote.change((d) => A.splice(d, ["text"], 6, 0, "\n- agent line\n"));
    await waitFor(() => view.state.doc.toString() === "contin\n- agent line\n", 10_000, "the agent's append in the editor");
    expect(view.state.selection.main.head).toBe(6);

    view.dispatch(view.state.replaceSelection("uous"));
    expect(view.state.doc.toString()).toBe("continuous\n- agent line\n");
    await waitFor(() => remote.doc().text === "continuous\n- agent line\n", 10_000, "the word to reach the other side");
  });

  it("still moves a caret that is after the insertion point along with its text", async () => {
    const { remote, view } = await bound("abc", 2);

    remote.change((d) => A.splice(d, ["text"], 0, 0, ">> "));
    await waitFor(() => view.state.doc.toString() === ">> abc", 10_000, "the insertion in the editor");
    expect(view.state.selection.main.head).toBe(5);
  });
});
