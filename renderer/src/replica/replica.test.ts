import { afterEach, describe, expect, it, vi } from "vitest";
import { Repo } from "@automerge/automerge-repo";
import { ChopinError } from "../../../shared/errors.js";
import { OPEN_DOCUMENT_RETRY_MS, OPEN_DOCUMENT_TIMEOUT_MS } from "../limits.js";
import { linkedRepos } from "../test/linked-repos.js";
import { openDocument, openDocumentFrom } from "./replica.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

describe("openDocument", () => {
  it("opens a document the core holds, with its current text", async () => {
    const { core, replica, close } = linkedRepos();
    cleanups.push(close);
    const source = core.create({ title: "Plan", text: "# Hello" });
    const handle = await openDocument(replica, source.url);
    expect(handle.doc().text).toBe("# Hello");
  });

  it("waits for a document the core only gets after the replica asked", async () => {
    const { core, replica, close } = linkedRepos();
    cleanups.push(close);
    const elsewhere = new Repo({});
    cleanups.push(() => void elsewhere.shutdown());
    const original = elsewhere.create({ title: "Late", text: "arrives later" });
    const opening = openDocument(replica, original.url, { timeoutMs: 10_000, retryMs: 50 });
    // Let the replica's request be refused first, then give the core the document.
    await new Promise<void>((resolve) => {
      const check = () => (replica.handles[original.documentId]?.isUnavailable() ? resolve() : setTimeout(check, 10));
      check();
    });
    core.import((await elsewhere.export(original.documentId))!, { docId: original.documentId });
    const handle = await opening;
    expect(handle.doc().text).toBe("arrives later");
  });

  it("gives up with a typed error after the bound", async () => {
    const { replica, close } = linkedRepos();
    cleanups.push(close);
    const elsewhere = new Repo({});
    cleanups.push(() => void elsewhere.shutdown());
    const missing = elsewhere.create({ text: "" });
    const error = await openDocument(replica, missing.url, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChopinError);
    expect((error as ChopinError).code).toBe("timeout");
  });
});

describe("openDocument defaults", () => {
  it("asks again every OPEN_DOCUMENT_RETRY_MS and gives up at OPEN_DOCUMENT_TIMEOUT_MS, not a millisecond sooner", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    // No peers: every find() of an unknown document ends "unavailable" at once, as a core without it answers.
    const replica = new Repo({});
    const elsewhere = new Repo({});
    cleanups.push(() => {
      vi.useRealTimers();
      vi.restoreAllMocks();
      void replica.shutdown();
      void elsewhere.shutdown();
    });
    const missing = elsewhere.create({ text: "" });
    const finds = vi.spyOn(replica, "find");
    // automerge-repo logs each refused wait; 60 of them say nothing here.
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    let outcome: unknown = null;
    const opening = openDocument(replica, missing.url).catch((e: unknown) => (outcome = e));
    const settle = async (times = 50) => {
      for (let i = 0; i < times; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    await settle();
    expect(finds).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(OPEN_DOCUMENT_RETRY_MS - 1);
    await settle();
    expect(finds).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(finds).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(OPEN_DOCUMENT_TIMEOUT_MS - OPEN_DOCUMENT_RETRY_MS - 1);
    await settle();
    expect(outcome).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    await opening;
    expect(outcome).toBeInstanceOf(ChopinError);
    expect((outcome as ChopinError).code).toBe("timeout");
    expect((outcome as ChopinError).message).toContain(`within ${OPEN_DOCUMENT_TIMEOUT_MS / 1000} s`);
  });
});

describe("openDocumentFrom", () => {
  it("loads the stored bytes itself: ready with no peer to sync from", async () => {
    const elsewhere = new Repo({});
    const alone = new Repo({});
    cleanups.push(() => void elsewhere.shutdown(), () => void alone.shutdown());
    const original = elsewhere.create({ title: "Stored", text: "from bytes" });
    const bytes = (await elsewhere.export(original.documentId))!;
    const handle = await openDocumentFrom(alone, original.url, bytes, { timeoutMs: 50 });
    expect(handle.documentId).toBe(original.documentId);
    expect(handle.doc().text).toBe("from bytes");
  });

  it("bytes that give no document fall back to asking the core", async () => {
    const { core, replica, close } = linkedRepos();
    cleanups.push(close);
    const source = core.create({ title: "Plan", text: "via sync" });
    const handle = await openDocumentFrom(replica, source.url, new Uint8Array([1, 2, 3]));
    expect(handle.doc().text).toBe("via sync");
  });
});
