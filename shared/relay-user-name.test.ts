import { describe, expect, it } from "vitest";
import { deviceOfWirePeer, nameOfRelayHandle } from "./relay-user-name.js";

describe("relay identities as the app names them", () => {
  it("names a GitHub handle by its login and a relay handle by itself", () => {
    expect(nameOfRelayHandle("gh:alice")).toBe("alice");
    expect(nameOfRelayHandle("bob")).toBe("bob");
  });
  it("takes a wire peer id's device after its last colon, also under a GitHub handle", () => {
    expect(deviceOfWirePeer("gh:alice:device-1")).toBe("device-1");
    expect(deviceOfWirePeer("bob:device-2")).toBe("device-2");
    expect(deviceOfWirePeer("device-3")).toBe("device-3");
  });
});
