import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { next as A } from "@automerge/automerge";
import { Repo, type DocHandle } from "@automerge/automerge-repo";
import { OUTBOX_WRITE_DELAY_MS } from "../limits.js";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { MemoryStorage } from "../test/memory-storage.js";
import { base64ToBytes } from "./base64.js";
import { OutboxKeeper, type OutboxKeeperOptions } from "./outbox-keeper.js";
import { OutboxStore, type OutboxEntry } from "./outbox-store.js";

let repo: Repo;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  repo = new Repo({});
});
afterEach(() => {
  void repo.shutdown();
  vi.useRealTimers();
});

function plan(text = ""): DocHandle<PlanDocument> {
  return repo.create<PlanDocument>({ schemaVersion: 1, kind: "plan", title: "Plan", text, authors: {} } as unknown as PlanDocument);
}
const type = (handle: DocHandle<PlanDocument>, text: string) =>
  handle.change((d) => A.splice(d, ["text"], d.text.length, 0, text));

/** The text an entry gives when applied to the document as the core last confirmed it. */
function replayed(base: A.Doc<PlanDocument>, entry: OutboxEntry): string {
  if (entry.document) return A.loadIncremental(A.clone(base), base64ToBytes(entry.document)).text;
  return A.applyChanges(A.clone(base), entry.changes!.map(base64ToBytes))[0].text;
}

function setup(options: Partial<OutboxKeeperOptions> = {}, storage = new MemoryStorage()) {
  const handle = options.handle ?? plan("start ");
  const store = options.store ?? new OutboxStore(storage);
  const problems: (string | null)[] = [];
  const keeper = new OutboxKeeper({ handle, store, windowId: "w1", page: null, onProblem: (p) => problems.push(p), ...options });
  const stored = () => store.get(handle.documentId, "w1")?.entry ?? null;
  return { handle, store, storage, keeper, problems, stored, base: A.clone(handle.doc()) };
}

describe("OutboxKeeper", () => {
  it(`keeps unconfirmed edits OUTBOX_WRITE_DELAY_MS (${OUTBOX_WRITE_DELAY_MS} ms) after the first, not a millisecond sooner`, () => {
    const { handle, keeper, stored, base } = setup();
    type(handle, "typed while down");
    keeper.headsChanged();
    vi.advanceTimersByTime(OUTBOX_WRITE_DELAY_MS - 1);
    expect(stored()).toBeNull();
    vi.advanceTimersByTime(1);
    const entry = stored()!;
    expect(entry.heads).toEqual(A.getHeads(handle.doc()));
    expect(entry.title).toBe("Plan");
    expect(replayed(base, entry)).toBe("start typed while down");
    keeper.stop();
  });

  it("once the core could not confirm, keeps what is unconfirmed at once and every later edit without the delay, until it confirms", () => {
    const { handle, keeper, stored, base } = setup();
    type(handle, "a");
    keeper.confirmationFailed();
    expect(replayed(base, stored()!)).toBe("start a");
    type(handle, "b");
    keeper.headsChanged();
    vi.advanceTimersByTime(0);
    expect(replayed(base, stored()!)).toBe("start ab");
    // Confirmed: back to waiting the delay before keeping anything.
    keeper.confirmed(handle.heads());
    expect(stored()).toBeNull();
    type(handle, "c");
    keeper.headsChanged();
    vi.advanceTimersByTime(OUTBOX_WRITE_DELAY_MS - 1);
    expect(stored()).toBeNull();
    keeper.stop();
  });

  it("encodes nothing while the core keeps confirming, and keeps the edits once it stops", () => {
    const { handle, keeper, storage, stored } = setup();
    for (let i = 0; i < 30; i++) {
      type(handle, "x");
      keeper.headsChanged();
      vi.advanceTimersByTime(100);
      keeper.confirmed(handle.heads());
    }
    expect(storage.writes).toBe(0);
    const confirmedState = A.clone(handle.doc());
    // The core goes away: no confirmation for these.
    type(handle, "y");
    keeper.headsChanged();
    vi.advanceTimersByTime(OUTBOX_WRITE_DELAY_MS);
    expect(storage.writes).toBe(1);
    expect(stored()!.changes).toHaveLength(1);
    expect(replayed(confirmedState, stored()!)).toBe(`start ${"x".repeat(30)}y`);
    keeper.stop();
  });

  it("removes the entry only once the core confirms the newest heads", () => {
    const { handle, keeper, stored, base } = setup();
    type(handle, "one");
    const afterOne = handle.heads();
    keeper.headsChanged();
    type(handle, " two");
    keeper.headsChanged();
    vi.advanceTimersByTime(OUTBOX_WRITE_DELAY_MS);
    expect(replayed(base, stored()!)).toBe("start one two");
    keeper.confirmed(afterOne);
    expect(stored()).not.toBeNull();
    // The next write keeps only what follows the confirmed heads (applied onto them it still gives the whole text).
    keeper.headsChanged();
    vi.advanceTimersByTime(OUTBOX_WRITE_DELAY_MS);
    expect(stored()!.changes).toHaveLength(1);
    keeper.confirmed(handle.heads());
    expect(stored()).toBeNull();
    keeper.stop();
  });

  it("writes at once when stopped or when the page goes away, and clears what it wrote once the core confirms", async () => {
    const page = new EventTarget() as unknown as Window;
    let confirm!: () => void;
    const asked: string[][] = [];
    const waitSaved = (heads: string[]) => {
      asked.push(heads);
      return new Promise<void>((resolve) => (confirm = resolve));
    };
    const { handle, keeper, stored } = setup({ page, waitSaved });
    type(handle, "a");
    keeper.headsChanged();
    page.dispatchEvent(new Event("pagehide"));
    expect(stored()).not.toBeNull();
    type(handle, "b");
    keeper.headsChanged();
    keeper.stop();
    expect(stored()!.heads).toEqual(A.getHeads(handle.doc()));
    expect(asked).toEqual([A.getHeads(handle.doc())]);
    confirm();
    await vi.waitFor(() => expect(stored()).toBeNull());
  });

  it("a document closed and reopened in the same window still keeps the edits kept before", () => {
    const first = setup({ waitSaved: () => Promise.reject(new Error("core down")) });
    type(first.handle, "before");
    first.keeper.headsChanged();
    first.keeper.stop();
    const second = setup({ handle: first.handle, store: first.store });
    type(first.handle, " after");
    second.keeper.headsChanged();
    vi.advanceTimersByTime(OUTBOX_WRITE_DELAY_MS);
    expect(replayed(first.base, second.stored()!)).toBe("start before after");
    second.keeper.stop();
  });

  it("past the per-document bound keeps the whole document instead; past that says so and keeps the earlier entry", () => {
    const storage = new MemoryStorage();
    const handle = plan("start ");
    const base = A.clone(handle.doc());
    const store = new OutboxStore(storage, { maxDocumentChars: 3_000, maxTotalChars: 1_000_000 });
    const { keeper, stored, problems } = setup({ handle, store });
    // Many keystrokes: their changes encode larger than the document saved whole.
    for (let i = 0; i < 60; i++) type(handle, "k");
    keeper.flush();
    expect(stored()!.changes).toBeUndefined();
    expect(replayed(base, stored()!)).toBe(`start ${"k".repeat(60)}`);
    expect(problems).toEqual([]);

    // Text that does not compress: too large in either form.
    type(handle, Array.from({ length: 5_000 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join(""));
    keeper.flush();
    expect(replayed(base, stored()!)).toBe(`start ${"k".repeat(60)}`);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/latest edits to “Plan”.*Keep this window open until Chopin is back.*the edits kept earlier stay stored/);
    // Said once, not at every write.
    keeper.flush();
    expect(problems).toHaveLength(1);
    keeper.confirmed(handle.heads());
    expect(problems).toEqual([problems[0], null]);
    keeper.stop();
  });

  it("says so when the browser refuses to store the edits", () => {
    const { handle, keeper, stored, problems } = setup({}, new MemoryStorage(100));
    type(handle, "lost?");
    keeper.flush();
    expect(stored()).toBeNull();
    expect(problems[0]).toMatch(/browser refused to store more unsaved edits/);
    expect(problems[0]).not.toMatch(/kept earlier/);
    keeper.stop();
  });
});
