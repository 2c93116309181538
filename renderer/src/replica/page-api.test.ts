import { describe, expect, it } from "vitest";
import { ChopinError } from "../../../shared/errors.js";
import type { HostToPage } from "./host-protocol.js";
import { PageApiClient } from "./page-api.js";

describe("PageApiClient", () => {
  it("settles each call by its id, keeping an error's code and sentence", async () => {
    const sent: HostToPage[] = [];
    const client = new PageApiClient((m) => sent.push(m));
    const saved = client.api.readSavedDocument("a");
    const wait = client.api.waitSaved("a", ["h"]);
    expect(sent).toEqual([
      { t: "api", id: 1, method: "readSavedDocument", args: ["a"] },
      { t: "api", id: 2, method: "waitSaved", args: ["a", ["h"]] },
    ]);
    client.settle({ t: "api-result", id: 2, ok: false, code: "timeout", message: "Not saved in time." });
    client.settle({ t: "api-result", id: 1, ok: true, value: "Ynl0ZXM=" });
    client.settle({ t: "api-result", id: 99, ok: true, value: null });
    await expect(saved).resolves.toBe("Ynl0ZXM=");
    await expect(wait).rejects.toEqual(new ChopinError("timeout", "Not saved in time."));
  });

  it("refuses what is pending, and every later call, with core-unavailable once closed", async () => {
    const client = new PageApiClient(() => undefined);
    const pending = client.api.getDocument("a");
    client.close();
    await expect(pending).rejects.toMatchObject({ code: "core-unavailable" });
    await expect(client.api.getDocument("b")).rejects.toMatchObject({ code: "core-unavailable" });
  });
});
