import { describe, expect, it } from "vitest";
import type { ChopinApi } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { dispatchApiCall } from "./api-dispatch.js";

const api = {
  getSettings: async () => ({ displayName: "Ada", relayUrl: null, relayTokenSet: false }),
  renameDocument: async (id: string, title: string) => {
    if (!title) throw new ChopinError("invalid-input", "A title needs at least one character.");
    return { id, title };
  },
  deleteDocument: async () => {
    throw new Error("disk on fire /secret/path");
  },
} as unknown as ChopinApi;

describe("dispatchApiCall", () => {
  it("calls a contract method with its arguments", async () => {
    expect(await dispatchApiCall(api, "renameDocument", ["d1", "Plan"])).toEqual({ ok: true, result: { id: "d1", title: "Plan" } });
  });

  it("refuses names outside the contract, including inherited ones", async () => {
    for (const name of ["constructor", "__proto__", "toString", "eval", 42]) {
      const result = await dispatchApiCall(api, name, []);
      expect(result).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    }
  });

  it("refuses non-list arguments", async () => {
    expect(await dispatchApiCall(api, "getSettings", "x")).toMatchObject({ ok: false, error: { code: "invalid-input" } });
  });

  it("passes typed errors through and hides untyped ones", async () => {
    expect(await dispatchApiCall(api, "renameDocument", ["d1", ""])).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    const hidden = await dispatchApiCall(api, "deleteDocument", ["d1"]);
    expect(hidden).toMatchObject({ ok: false, error: { code: "internal" } });
    expect(JSON.stringify(hidden)).not.toContain("/secret/path");
  });
});
