/** Edge of the client name kept per MCP session (MAX_MCP_CLIENT_NAME_CHARS): it lands in every document's provenance. */
import { describe, expect, it } from "vitest";
import { MAX_MCP_CLIENT_NAME_CHARS } from "../../shared/limits.js";
import { ClientSessions, UNKNOWN_CLIENT } from "./sessions.js";

describe("ClientSessions client names", () => {
  it("keeps a MAX_MCP_CLIENT_NAME_CHARS name whole and cuts one more character off a longer one", () => {
    const sessions = new ClientSessions();
    const atBound = "n".repeat(MAX_MCP_CLIENT_NAME_CHARS);
    expect(sessions.nameOf(sessions.open(atBound))).toBe(atBound);
    expect(sessions.nameOf(sessions.open(`${atBound}X`))).toBe(atBound);
  });

  it("measures the bound after trimming, and reads a blank name as unknown", () => {
    const sessions = new ClientSessions();
    const atBound = "n".repeat(MAX_MCP_CLIENT_NAME_CHARS);
    expect(sessions.nameOf(sessions.open(`  ${atBound}  `))).toBe(atBound);
    expect(sessions.nameOf(sessions.open("   "))).toBe(UNKNOWN_CLIENT);
  });
});
