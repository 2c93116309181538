import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ChopinError } from "../../shared/errors.js";
import { parseRelayJson, relayUnreachable } from "./relay-answers.js";

describe("the relay's answers", () => {
  it("reads a well-formed answer, and types an answer that is not JSON or not its shape as 'relay-unavailable'", () => {
    const schema = z.object({ user: z.string() });
    expect(parseRelayJson('{"user":"ada"}', schema, "team")).toEqual({ user: "ada" });
    expect(() => parseRelayJson("<html>502</html>", schema, "team")).toThrow(new ChopinError("relay-unavailable", "The relay's answer was not JSON."));
    expect(() => parseRelayJson('{"user":7}', schema, "team")).toThrow(/^The relay's team answer has an unexpected shape\.$/);
  });

  it("says why the relay was not reached, in words, without repeating the fallback sentence", () => {
    const refused = relayUnreachable("ws://127.0.0.1:9", new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }));
    expect(refused.code).toBe("relay-unavailable");
    expect(refused.message).toBe("Cannot reach the relay at ws://127.0.0.1:9: The relay is not running at its address, or the address is wrong.");
    expect(relayUnreachable("wss://relay.example", new Error("odd")).message).toBe("Cannot reach the relay at wss://relay.example.");
  });
});
