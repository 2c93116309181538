import { describe, expect, it } from "vitest";
import { MAX_DISPLAY_NAME_CHARS } from "../../shared/limits.js";
import { agentChangeMessage, agentLabel, agentOfMessage, isRestoreMessage, restoreChangeMessage } from "./change-messages.js";

describe("agent change messages", () => {
  it("round-trip the agent's name; a person's change (no message, another message) names no agent", () => {
    expect(agentOfMessage(agentChangeMessage({ agent: "Claude Code" }))).toBe("Claude Code");
    expect(agentOfMessage(null)).toBeNull();
    expect(agentOfMessage(undefined)).toBeNull();
    expect(agentOfMessage("Restored version 3")).toBeNull();
    expect(agentLabel("Codex")).toBe("Codex (agent)");
  });

  it("mark a restore, and nothing else as one", () => {
    expect(isRestoreMessage(restoreChangeMessage("v-abc"))).toBe(true);
    expect(isRestoreMessage(agentChangeMessage({ agent: "restore" }))).toBe(false);
    expect(isRestoreMessage(null)).toBe(false);
    expect(agentOfMessage(restoreChangeMessage("v-abc"))).toBeNull();
  });

  it("keep a MAX_DISPLAY_NAME_CHARS name whole and cut one more character; a blank name reads 'unknown'", () => {
    const atLimit = "a".repeat(MAX_DISPLAY_NAME_CHARS);
    expect(agentOfMessage(agentChangeMessage({ agent: atLimit }))).toBe(atLimit);
    expect(agentOfMessage(agentChangeMessage({ agent: `${atLimit}b` }))).toBe(atLimit);
    expect(agentOfMessage(agentChangeMessage({ agent: "   " }))).toBe("unknown");
    // A message written elsewhere (another build, a teammate's tool) is bounded on reading too.
    expect(agentOfMessage(`agent: ${atLimit}b`)).toBe(atLimit);
  });
});
