/** `within`: the work's end or the bound, whichever comes first; a failure of the work is a settled wait too. */
import { describe, expect, it } from "vitest";
import { within } from "./within.js";

describe("within", () => {
  it("resolves when the work settles before the bound, also when it fails", async () => {
    await expect(within(Promise.resolve("done"), 60_000)).resolves.toBeUndefined();
    await expect(within(Promise.reject(new Error("refused")), 60_000)).resolves.toBeUndefined();
  });

  it("resolves at the bound when the work never settles", async () => {
    const never = new Promise(() => undefined);
    let settled = false;
    const wait = within(never, 20).then(() => (settled = true));
    await wait;
    expect(settled).toBe(true);
  });
});
