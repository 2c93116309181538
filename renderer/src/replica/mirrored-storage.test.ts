import { describe, expect, it } from "vitest";
import { MirroredStorage } from "./mirrored-storage.js";
import { OUTBOX_KEY_PREFIX } from "./outbox-store.js";

describe("MirroredStorage", () => {
  it("holds only the outbox's keys, reads its own writes back at once, and sends every write to the page in order", () => {
    const writes: [string, string | null][] = [];
    const storage = new MirroredStorage((key, value) => writes.push([key, value]), [
      [`${OUTBOX_KEY_PREFIX}a`, "1"],
      ["other-app-key", "x"],
    ]);
    expect(storage.length).toBe(1);
    expect(storage.getItem("other-app-key")).toBeNull();
    storage.setItem(`${OUTBOX_KEY_PREFIX}b`, "2");
    expect(storage.getItem(`${OUTBOX_KEY_PREFIX}b`)).toBe("2");
    storage.removeItem(`${OUTBOX_KEY_PREFIX}a`);
    storage.removeItem(`${OUTBOX_KEY_PREFIX}never`);
    expect(writes).toEqual([
      [`${OUTBOX_KEY_PREFIX}b`, "2"],
      [`${OUTBOX_KEY_PREFIX}a`, null],
    ]);
    expect([storage.key(0), storage.key(1)]).toEqual([`${OUTBOX_KEY_PREFIX}b`, null]);
  });

  it("follows another window's changes without sending them back", () => {
    const writes: unknown[] = [];
    const storage = new MirroredStorage((...w) => writes.push(w));
    storage.apply([[`${OUTBOX_KEY_PREFIX}x`, "v"]]);
    expect(storage.getItem(`${OUTBOX_KEY_PREFIX}x`)).toBe("v");
    storage.apply([[`${OUTBOX_KEY_PREFIX}x`, null]]);
    expect(storage.length).toBe(0);
    expect(writes).toEqual([]);
  });
});
