/**
 * The patched DocHandle (patches/@automerge+automerge-repo+*.patch) runs an update as a call instead of an XState event
 * (that event's processing was ~8% of a busy client's CPU). These tests hold it to what the XState mailbox guaranteed:
 * an update a listener asks for runs after the current one, each "change" event carries only its own patches, a
 * callback's error reaches its caller and changes nothing, and a deleted handle takes no updates.
 */
import { next as A } from "@automerge/automerge";
import { Repo, type DocHandle, type DocHandleChangePayload } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";

interface Text {
  text: string;
}

const repos: Repo[] = [];

function handleWith(text: string): DocHandle<Text> {
  return repoWith().create<Text>({ text });
}

function repoWith(): Repo {
  const repo = new Repo({ network: [] });
  repos.push(repo);
  return repo;
}

function append(handle: DocHandle<Text>, more: string): void {
  handle.change((d) => A.splice(d, ["text"], d.text.length, 0, more));
}

/** The text each "change" event's patches insert, one entry per event. */
function insertedPerEvent(handle: DocHandle<Text>): string[] {
  const events: string[] = [];
  handle.on("change", (payload: DocHandleChangePayload<Text>) => {
    events.push(payload.patches.map((p) => (p.action === "splice" ? p.value : "")).join(""));
  });
  return events;
}

afterEach(async () => {
  await Promise.all(repos.splice(0).map((r) => r.shutdown()));
});

describe("patched DocHandle updates", () => {
  it("runs a change a listener makes after the current one, each event with only its own patches", () => {
    const handle = handleWith("");
    const events = insertedPerEvent(handle);
    const seenInsideListener: string[] = [];
    let reacted = false;
    handle.on("change", () => {
      if (reacted) return;
      reacted = true;
      append(handle, "b");
      // As with XState's mailbox: the listener's change waits until this one's listeners are done.
      seenInsideListener.push(handle.doc().text);
    });
    append(handle, "a");
    expect(seenInsideListener).toEqual(["a"]);
    expect(handle.doc().text).toBe("ab");
    expect(events).toEqual(["a", "b"]);
    append(handle, "c");
    expect(events).toEqual(["a", "b", "c"]);
  });

  it("throws a change callback's error to its caller and changes nothing", () => {
    const handle = handleWith("x");
    const events = insertedPerEvent(handle);
    const heads = handle.heads();
    expect(() =>
      handle.change(() => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(handle.heads()).toEqual(heads);
    expect(events).toEqual([]);
    append(handle, "y");
    expect(handle.doc().text).toBe("xy");
    expect(events).toEqual(["y"]);
  });

  it("never reports a change twice after a listener threw", () => {
    const handle = handleWith("");
    let throwOnce = true;
    handle.on("change", () => {
      if (!throwOnce) return;
      throwOnce = false;
      throw new Error("listener failed");
    });
    const events = insertedPerEvent(handle);
    expect(() => append(handle, "a")).toThrow("listener failed");
    append(handle, "b");
    expect(handle.doc().text).toBe("ab");
    // The first event reached no later listener (the emitter stopped at the throw); the next carries "b" alone.
    expect(events).toEqual(["b"]);
  });

  it("takes no update once the handle is deleted", async () => {
    const repo = repoWith();
    const handle = repo.create<Text>({ text: "kept" });
    await handle.whenReady();
    const events = insertedPerEvent(handle);
    let deletes = 0;
    handle.on("delete", () => deletes++);
    repo.delete(handle.documentId);
    expect(deletes).toBe(1);
    expect(() => handle.update((doc) => A.change(doc, (d) => A.splice(d, ["text"], 0, 0, "lost")))).not.toThrow();
    expect(events).toEqual([]);
    expect(handle.isDeleted()).toBe(true);
  });
});
