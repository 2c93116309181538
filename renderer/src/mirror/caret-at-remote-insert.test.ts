// @vitest-environment jsdom
/**
 * Text someone else inserts exactly at this person's caret (an agent appending over MCP while they type at the end, a
 * teammate at the same spot) goes after the caret: their next key continues what they were typing. (The Automerge
 * CodeMirror binding the editor used before the mirror put the caret after the insertion, so a word typed at the end
 * was split around an agent's append; UX audit.)
 */
import { afterEach, describe, expect, it } from "vitest";
import "../test/jsdom-layout.js";
import { allHold, mirrorSession, type MirrorSession } from "./mirror-test-support.js";
import { waitFor } from "../../../shared/wait-for.js";

const sessions: MirrorSession[] = [];
afterEach(() => {
  while (sessions.length) sessions.pop()!.close();
});

async function bound(text: string, caret: number): Promise<MirrorSession> {
  const session = await mirrorSession({ text });
  sessions.push(session);
  session.view.dispatch({ selection: { anchor: caret } });
  return session;
}

describe("a remote insertion at the caret", () => {
  it("lands after the caret, so the next key continues the person's word", async () => {
    const s = await bound("contin", 6);
    s.remoteSplice(6, 0, "\n- agent line\n");
    await waitFor(() => s.view.state.doc.toString() === "contin\n- agent line\n", "the agent's append in the editor", 10_000);
    expect(s.view.state.selection.main.head).toBe(6);

    s.view.dispatch(s.view.state.replaceSelection("uous"));
    expect(s.view.state.doc.toString()).toBe("continuous\n- agent line\n");
    await waitFor(() => allHold(s, "continuous\n- agent line\n"), "the word to reach the other side", 10_000);
  });

  it("still moves a caret that is after the insertion point along with its text", async () => {
    const s = await bound("abc", 2);
    s.remoteSplice(0, 0, ">> ");
    await waitFor(() => s.view.state.doc.toString() === ">> abc", "the insertion in the editor", 10_000);
    expect(s.view.state.selection.main.head).toBe(5);
  });
});
