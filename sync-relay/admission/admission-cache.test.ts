import { describe, expect, it } from "vitest";
import { tokenHash, TtlCache } from "./admission-cache.js";

describe("admission cache", () => {
  it("serves an entry until its TTL and not at it", () => {
    let now = 0;
    const c = new TtlCache<string>(30_000, 10, () => now);
    c.set("k", "v");
    now = 29_999;
    expect(c.get("k")).toBe("v");
    now = 30_000;
    expect(c.get("k")).toBeUndefined();
  });

  it("holds at most its capacity, evicting the oldest", () => {
    const c = new TtlCache<number>(1000, 3, () => 0);
    for (let i = 0; i < 3; i++) c.set(`k${i}`, i);
    expect(c.size).toBe(3);
    c.set("k3", 3);
    expect(c.size).toBe(3);
    expect(c.get("k0")).toBeUndefined();
    expect(c.get("k3")).toBe(3);
  });

  it("keys by SHA-256, never by the token itself", () => {
    expect(tokenHash("ghu_x")).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash("ghu_x")).not.toContain("ghu_x");
  });
});
