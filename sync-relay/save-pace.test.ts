/**
 * The relay saves a busy document at most once per RELAY_SAVE_DEBOUNCE_MS: a change is not in SQLite 1 ms before
 * that interval and is at it. Fake clocks (setTimeout and Date only; sockets and SQLite stay real).
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RELAY_SAVE_DEBOUNCE_MS } from "./limits.js";
import { startRelay, type RunningRelay } from "./server.js";
import { tempDir } from "./test-wire.js";

interface Notes {
  items: string[];
}

let dir: ReturnType<typeof tempDir>;
let relay: RunningRelay;

beforeEach(async () => {
  dir = tempDir("chopin-relay-save-");
  relay = await startRelay({ dataDir: join(dir.path, "relay") });
});

afterEach(async () => {
  vi.useRealTimers();
  await relay.close();
  dir.remove();
});

/** Rows the relay's storage holds for a document (its snapshot and incremental chunks). */
function storedChunks(documentId: string): number {
  const row = relay.db.prepare("SELECT count(*) AS n FROM automerge_chunks WHERE key >= ? AND key < ?").get(documentId, `${documentId}\uffff`) as {
    n: number;
  };
  return row.n;
}

describe("relay save pace", () => {
  it("writes a new document's first change no sooner than RELAY_SAVE_DEBOUNCE_MS, and then at once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const handle = relay.repo.create<Notes>({ items: [] });
    handle.change((d) => void d.items.push("saved later"));
    await vi.advanceTimersByTimeAsync(RELAY_SAVE_DEBOUNCE_MS - 1);
    expect(storedChunks(handle.documentId)).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(storedChunks(handle.documentId)).toBeGreaterThan(0));
  });
});
