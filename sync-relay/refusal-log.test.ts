import { describe, expect, it } from "vitest";
import { RELAY_REFUSAL_LOG_INTERVAL_MS, RELAY_REFUSAL_LOG_MAX_ADDRESSES } from "./limits.js";
import { createRefusalLog } from "./refusal-log.js";

function setup() {
  const lines: string[] = [];
  let now = 1_000_000;
  const refuse = createRefusalLog((line) => lines.push(line), () => now);
  return { lines, refuse, advance: (ms: number) => (now += ms) };
}

describe("refusal log", () => {
  it("logs the first refusal from an address with the status and reason, never more than once per interval", () => {
    const { lines, refuse, advance } = setup();
    refuse("upgrade", "10.0.0.7", 401, "The relay token is missing, wrong or revoked.");
    expect(lines).toEqual(["refused sign-in at upgrade from 10.0.0.7: 401 The relay token is missing, wrong or revoked."]);
    advance(RELAY_REFUSAL_LOG_INTERVAL_MS - 1);
    refuse("upgrade", "10.0.0.7", 401, "x");
    refuse("/v1/team", "10.0.0.7", 401, "x");
    expect(lines).toHaveLength(1);
    // Another address is its own.
    refuse("upgrade", "10.0.0.8", 401, "y");
    expect(lines).toHaveLength(2);
    advance(1);
    refuse("/v1/team", "10.0.0.7", 403, "Not admitted.");
    expect(lines[2]).toBe("refused sign-in at /v1/team from 10.0.0.7: 403 Not admitted. (and 2 more from there since the last line)");
  });

  it("remembers at most RELAY_REFUSAL_LOG_MAX_ADDRESSES addresses, forgetting the oldest", () => {
    const { lines, refuse } = setup();
    for (let i = 0; i < RELAY_REFUSAL_LOG_MAX_ADDRESSES; i++) refuse("upgrade", `a${i}`, 401, "r");
    // At the bound every address is still remembered: a second refusal from the oldest stays quiet.
    refuse("upgrade", "a0", 401, "r");
    expect(lines).toHaveLength(RELAY_REFUSAL_LOG_MAX_ADDRESSES);
    // One more address makes room by forgetting the oldest (a0 was refreshed by nothing: quiet refusals keep its place).
    refuse("upgrade", "new", 401, "r");
    refuse("upgrade", "a0", 401, "r");
    expect(lines.at(-1)).toBe("refused sign-in at upgrade from a0: 401 r");
    expect(lines).toHaveLength(RELAY_REFUSAL_LOG_MAX_ADDRESSES + 2);
  });
});
