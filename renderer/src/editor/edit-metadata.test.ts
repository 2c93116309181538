// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { DocHandle } from "@automerge/automerge-repo";
import { UPDATED_AT_GRANULARITY_MS } from "../../../shared/limits.js";
import "../test/jsdom-layout.js";
import { textSync } from "./text-sync.js";
import { linkedRepos } from "../test/linked-repos.js";
import { waitFor } from "../test/wait-for.js";
import { recordEditMetadata } from "./edit-metadata.js";

type Doc = { text: string; authors: Record<string, string>; updatedAt: number };
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

async function setup(clock: { now: number }) {
  const { core, replica, close } = linkedRepos();
  cleanups.push(close);
  const remote = core.create<Doc>({ text: "hi", authors: {}, updatedAt: 1000 });
  const mine = await replica.find<Doc>(remote.url);
  const view = new EditorView({
    state: EditorState.create({
      doc: mine.doc().text,
      extensions: [textSync(mine as DocHandle<unknown>), recordEditMetadata(mine as never, () => "Ada", () => clock.now)],
    }),
    parent: document.body,
  });
  cleanups.push(() => view.destroy());
  return { remote, mine, view };
}

describe("edit metadata", () => {
  it("names this window's actor and bumps updatedAt after a local edit, not on open or for remote edits", async () => {
    const clock = { now: 1000 + UPDATED_AT_GRANULARITY_MS };
    const { remote, mine, view } = await setup(clock);
    remote.change((d) => A.splice(d, ["text"], 0, 0, "x"));
    await waitFor(() => view.state.doc.toString() === "xhi");
    expect(mine.doc().authors).toEqual({});
    expect(mine.doc().updatedAt).toBe(1000);

    view.dispatch({ changes: { from: 3, insert: "!" }, userEvent: "input.type" });
    await waitFor(() => Object.keys(remote.doc().authors).length === 1 && remote.doc().updatedAt === clock.now);
    expect(remote.doc().authors).toEqual({ [A.getActorId(mine.doc())]: "Ada" });
  });

  it(`moves updatedAt at most once per UPDATED_AT_GRANULARITY_MS (${UPDATED_AT_GRANULARITY_MS} ms)`, async () => {
    const clock = { now: 1000 + UPDATED_AT_GRANULARITY_MS - 1 };
    const { mine, view } = await setup(clock);
    view.dispatch({ changes: { from: 0, insert: "a" }, userEvent: "input.type" });
    await waitFor(() => Object.keys(mine.doc().authors).length === 1);
    expect(mine.doc().updatedAt).toBe(1000);
    clock.now = 1000 + UPDATED_AT_GRANULARITY_MS;
    view.dispatch({ changes: { from: 0, insert: "b" }, userEvent: "input.type" });
    await waitFor(() => mine.doc().updatedAt === clock.now);
  });
});
