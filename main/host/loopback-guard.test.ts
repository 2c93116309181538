import { describe, expect, it } from "vitest";
import { isAllowedHost, isAllowedOrigin, secretMatches } from "./loopback-guard.js";

describe("loopback guard", () => {
  it("accepts only our loopback host and port", () => {
    expect(isAllowedHost("127.0.0.1:4000", 4000)).toBe(true);
    expect(isAllowedHost("localhost:4000", 4000)).toBe(true);
    expect(isAllowedHost("127.0.0.1:4001", 4000)).toBe(false);
    expect(isAllowedHost("evil.example:4000", 4000)).toBe(false);
    expect(isAllowedHost("rebind.attacker.test", 4000)).toBe(false);
    expect(isAllowedHost(undefined, 4000)).toBe(false);
  });

  it("accepts only our own origin for sockets", () => {
    expect(isAllowedOrigin("http://127.0.0.1:4000", 4000)).toBe(true);
    expect(isAllowedOrigin("http://localhost:4000", 4000)).toBe(true);
    expect(isAllowedOrigin("https://evil.example", 4000)).toBe(false);
    expect(isAllowedOrigin("http://127.0.0.1:4001", 4000)).toBe(false);
    expect(isAllowedOrigin("null", 4000)).toBe(false);
    expect(isAllowedOrigin(undefined, 4000)).toBe(false);
  });

  it("compares secrets exactly", () => {
    expect(secretMatches("abc", "abc")).toBe(true);
    expect(secretMatches("abd", "abc")).toBe(false);
    expect(secretMatches("ab", "abc")).toBe(false);
    expect(secretMatches(null, "abc")).toBe(false);
  });
});
