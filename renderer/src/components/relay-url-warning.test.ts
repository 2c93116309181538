import { describe, expect, it } from "vitest";
import { relayUrlWarning, UNENCRYPTED_RELAY_WARNING } from "./relay-url-warning.js";

describe("relayUrlWarning", () => {
  it.each(["ws://relay.example.com", "ws://192.168.1.20:47620", "WS://Relay.Example.com/team", "ws://127.0.0.1.evil.com", "ws://[2001:db8::1]:80"])(
    "warns for %s (ws:// leaving this computer)",
    (typed) => expect(relayUrlWarning(typed)).toBe(UNENCRYPTED_RELAY_WARNING),
  );

  it.each(["wss://relay.example.com", "ws://127.0.0.1:47620", "ws://127.8.9.10", "ws://localhost:1", "ws://team.localhost", "ws://[::1]:47620", "", "not an address", "  "])(
    "stays quiet for %j",
    (typed) => expect(relayUrlWarning(typed)).toBeNull(),
  );
});
