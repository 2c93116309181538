// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import { undo, undoDepth } from "@codemirror/commands";
import { ChangeSet } from "@codemirror/state";
import { UPDATED_AT_GRANULARITY_MS } from "../limits.js";
import "../test/jsdom-layout.js";
import { unconfirmedEdits } from "./editor-mirror.js";
import { allHold, mirrorSession, type MirrorSession } from "./mirror-test-support.js";
import { TextAuthority } from "./text-authority.js";
import type { AuthorityToMirror } from "./protocol.js";
import { waitFor } from "../../../shared/wait-for.js";
import { PLANNER_AUTHOR, PLANNER_CHANGE_MESSAGE } from "../../../shared/planner-changes.js";

const sessions: MirrorSession[] = [];
afterEach(() => {
  while (sessions.length) sessions.pop()!.close();
});
async function open(options: Parameters<typeof mirrorSession>[0]): Promise<MirrorSession> {
  const session = await mirrorSession(options);
  sessions.push(session);
  return session;
}
const type = (s: MirrorSession, at: number, insert: string) =>
  s.view.dispatch({ changes: { from: at, insert }, userEvent: "input.type" });

describe("an editor mirror and its text authority", () => {
  it("turns typing into Automerge changes that reach the team, naming who typed and when", async () => {
    const s = await open({ text: "hello", name: "Ada" });
    type(s, 5, " world");
    await waitFor(() => allHold(s, "hello world"), "typing everywhere", 10_000);
    await waitFor(() => unconfirmedEdits(s.view.state) === 0, "the edit confirmed", 10_000);
    const doc = s.mine.doc();
    expect(doc.authors[A.getActorId(doc)]).toBe("Ada");
    expect(doc.updatedAt).toBeGreaterThan(0);
  });

  it("shows a teammate's edits and undoes only this editor's own", async () => {
    const s = await open({ text: "hello" });
    type(s, 5, " world");
    await waitFor(() => allHold(s, "hello world"), "typing everywhere", 10_000);
    s.remoteSplice(0, 0, "REMOTE ");
    await waitFor(() => allHold(s, "REMOTE hello world"), "the remote edit in the editor", 10_000);
    expect(undoDepth(s.view.state)).toBe(1);
    expect(undo(s.view)).toBe(true);
    await waitFor(() => allHold(s, "REMOTE hello"), "the undo everywhere", 10_000);
    expect(undo(s.view)).toBe(false);
  });

  it("keeps what is typed while the document loads, rebased over what the snapshot did not have", async () => {
    const s = await open({
      text: "hello",
      baseText: "hello",
      beforeLoad: (remote) => remote.change((d) => A.splice(d, ["text"], 5, 0, " world!")),
      attached: false,
    });
    // The snapshot is stale: the document says "hello world!". Typing goes on regardless.
    type(s, 0, "Dear ");
    type(s, 10, ",");
    expect(s.view.state.doc.toString()).toBe("Dear hello,");
    expect(unconfirmedEdits(s.view.state)).toBe(2);
    s.attach();
    // "," and " world!" were both inserted after "hello": the document's text, accepted first, goes first.
    await waitFor(() => allHold(s, "Dear hello world!,"), "typed edits merged with the loaded document", 10_000);
    await waitFor(() => unconfirmedEdits(s.view.state) === 0, "the edits confirmed", 10_000);
    // The catch-up is not this editor's to undo; its own two edits are.
    expect(undoDepth(s.view.state)).toBe(2);
    undo(s.view);
    undo(s.view);
    expect(undo(s.view)).toBe(false);
    await waitFor(() => allHold(s, "hello world!"), "the undo of the typing", 10_000);
  });

  it("converges when the editor and a teammate type at once, over many random rounds", async () => {
    const s = await open({ text: "0123456789".repeat(5) });
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let inserted = 0;
    for (let round = 0; round < 60; round++) {
      const local = s.view.state.doc.length;
      type(s, random(local + 1), "a");
      const remote = s.remote.doc().text.length;
      s.remoteSplice(random(remote + 1), 0, "b");
      inserted += 2;
      if (random(3) === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const expected = 50 + inserted;
    await waitFor(() => s.view.state.doc.length === expected && s.view.state.doc.toString() === s.remote.doc().text && s.mine.doc().text === s.remote.doc().text, "all three texts equal with every insert kept", 20_000);
    const text = s.view.state.doc.toString();
    expect(text.split("a").length - 1).toBe(60);
    expect(text.split("b").length - 1).toBe(60);
  });

  it("converges with deletions on both sides", async () => {
    const s = await open({ text: "abcdefghijklmnopqrstuvwxyz".repeat(4) });
    let seed = 9;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 40; round++) {
      const length = s.view.state.doc.length;
      const from = random(length);
      s.view.dispatch({ changes: { from, to: Math.min(length, from + random(4)), insert: random(2) ? "X" : "" }, userEvent: "input" });
      const remoteLength = s.remote.doc().text.length;
      const at = random(remoteLength);
      s.remoteSplice(at, Math.min(remoteLength - at, random(4)), random(2) ? "Y" : "");
      if (random(2) === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await waitFor(() => unconfirmedEdits(s.view.state) === 0 && s.view.state.doc.toString() === s.remote.doc().text && s.mine.doc().text === s.remote.doc().text, "all three texts equal", 20_000);
  });

  it("follows a body replaced wholesale by one replacement from the document", async () => {
    const s = await open({ text: "old body" });
    s.remote.change((d) => {
      d.text = "a new body";
    });
    await waitFor(() => allHold(s, "a new body"), "the replaced body in the editor", 10_000);
    type(s, 0, "!");
    await waitFor(() => allHold(s, "!a new body"), "typing after the replacement", 10_000);
  });
});

describe("what the authority writes beside the text", () => {
  it("names this window's actor and bumps updatedAt after its edit, not on open or for a teammate's edit", async () => {
    const clock = { now: 1000 + UPDATED_AT_GRANULARITY_MS };
    const s = await open({ text: "hi", updatedAt: 1000, now: () => clock.now });
    s.remoteSplice(0, 0, "x");
    await waitFor(() => s.view.state.doc.toString() === "xhi", "the remote edit", 10_000);
    expect(s.mine.doc().authors).toEqual({});
    expect(s.mine.doc().updatedAt).toBe(1000);

    type(s, 3, "!");
    await waitFor(() => Object.keys(s.remote.doc().authors).length === 1 && s.remote.doc().updatedAt === clock.now, "the metadata", 10_000);
    expect(s.remote.doc().authors).toEqual({ [A.getActorId(s.mine.doc())]: "Ada" });
  });

  it(`moves updatedAt at most once per UPDATED_AT_GRANULARITY_MS (${UPDATED_AT_GRANULARITY_MS} ms)`, async () => {
    const clock = { now: 1000 + UPDATED_AT_GRANULARITY_MS - 1 };
    const s = await open({ text: "hi", updatedAt: 1000, now: () => clock.now });
    type(s, 0, "a");
    await waitFor(() => Object.keys(s.mine.doc().authors).length === 1, "the first edit", 10_000);
    expect(s.mine.doc().updatedAt).toBe(1000);
    clock.now = 1000 + UPDATED_AT_GRANULARITY_MS;
    type(s, 0, "b");
    await waitFor(() => s.mine.doc().updatedAt === clock.now, "updatedAt bumped", 10_000);
  });
});

describe("TextAuthority on its own", () => {
  it("sends the document's text as the base when the mirror had none", async () => {
    const s = await open({ text: "from the document" });
    const sent: AuthorityToMirror[] = [];
    const authority = new TextAuthority({ baseText: null, send: (m) => sent.push(m) });
    authority.attach(s.mine);
    expect(sent).toEqual([{ type: "base", text: "from the document" }]);
    authority.detach();
  });

  it("refuses a push that does not fit the text, with a typed message, and leaves the document as it was", async () => {
    const s = await open({ text: "hello" });
    const sent: AuthorityToMirror[] = [];
    const authority = new TextAuthority({ baseText: "hello", send: (m) => sent.push(m) });
    authority.attach(s.mine);
    const heads = s.mine.heads();
    authority.receive({ type: "push", version: 0, updates: [{ clientID: "x", changes: ChangeSet.of({ from: 0, insert: "!" }, 99).toJSON() }] });
    authority.receive({ type: "push", version: 0, updates: [{ clientID: "x", changes: "not a changeset" as never }] });
    expect(sent[0]).toMatchObject({ type: "failed", code: "invalid-input" });
    expect(s.mine.heads()).toEqual(heads);
    expect(s.mine.doc().text).toBe("hello");
    authority.detach();
  });

  it("refuses a push made against a version it never had", async () => {
    const s = await open({ text: "hello" });
    const sent: AuthorityToMirror[] = [];
    const authority = new TextAuthority({ baseText: "hello", send: (m) => sent.push(m) });
    authority.attach(s.mine);
    authority.receive({ type: "push", version: 3, updates: [{ clientID: "x", changes: ChangeSet.of({ from: 0, insert: "!" }, 5).toJSON() }] });
    expect(sent).toEqual([expect.objectContaining({ type: "failed", code: "invalid-input" })]);
    expect(s.mine.doc().text).toBe("hello");
    authority.detach();
  });

  it("moves a position the mirror gave for an older version through every update since, and clamps a forgotten one", async () => {
    const s = await open({ text: "0123456789" });
    const authority = new TextAuthority({ baseText: "0123456789", send: () => undefined });
    authority.attach(s.mine);
    s.remoteSplice(0, 0, "ab");
    await waitFor(() => authority.version === 1, "the remote update", 10_000);
    expect(authority.positionNow(0, 5)).toBe(7);
    expect(authority.positionNow(1, 5)).toBe(5);
    expect(authority.positionNow(0, 99)).toBe(12);
    expect(authority.positionNow(7, 99)).toBe(12);
    // The mirror holds version 1: version 0 is forgotten, its positions are only clamped.
    authority.receive({ type: "synced", version: 1 });
    expect(authority.positionNow(0, 5)).toBe(5);
    authority.detach();
  });

  it("answers a pull with the updates from that version on, and forgets what the mirror said it holds", async () => {
    const s = await open({ text: "ab" });
    const sent: AuthorityToMirror[] = [];
    const authority = new TextAuthority({ baseText: "ab", send: (m) => sent.push(m) });
    authority.attach(s.mine);
    s.remoteSplice(0, 0, "1");
    await waitFor(() => authority.version === 1, "the first remote update", 10_000);
    s.remoteSplice(0, 0, "2");
    await waitFor(() => authority.version === 2, "the second remote update", 10_000);
    sent.length = 0;
    authority.receive({ type: "pull", version: 1 });
    expect(sent).toEqual([{ type: "updates", version: 1, updates: [expect.objectContaining({ clientID: "document" })] }]);
    authority.receive({ type: "synced", version: 2 });
    sent.length = 0;
    authority.receive({ type: "pull", version: 1 });
    expect(sent).toEqual([expect.objectContaining({ type: "failed" })]);
    authority.detach();
  });

  it("sends a Planner edit's marks with its update, again on a pull, and none with a person's update", async () => {
    const s = await open({ text: "We ship in May.\n" });
    const sent: AuthorityToMirror[] = [];
    const authority = new TextAuthority({ baseText: "We ship in May.\n", send: (m) => sent.push(m) });
    authority.attach(s.mine);
    s.remoteSplice(0, 0, "So: ");
    await waitFor(() => authority.version === 1, "the person's update", 10_000);
    s.remote.update((doc) => {
      const fork = A.change(A.clone(doc, { actor: "f1".repeat(16) }), { message: PLANNER_CHANGE_MESSAGE }, (d) => {
        A.splice(d, ["text"], d.text.length, 0, "Risks.\n");
        d.authors[A.getActorId(d)] = PLANNER_AUTHOR;
      });
      return A.applyChanges(doc, A.getChanges(doc, fork))[0];
    });
    await waitFor(() => authority.version === 2, "the Planner's update", 10_000);
    const marks = [{ kind: "added", from: 20, to: 26 }];
    expect(sent.filter((m) => m.type === "updates").map((m) => m.type === "updates" && m.updates.map((u) => u.marks))).toEqual([[undefined], [marks]]);
    sent.length = 0;
    authority.receive({ type: "pull", version: 0 });
    expect(sent).toEqual([{ type: "updates", version: 0, updates: [expect.not.objectContaining({ marks: expect.anything() }), expect.objectContaining({ marks })] }]);
    authority.detach();
  });
});
