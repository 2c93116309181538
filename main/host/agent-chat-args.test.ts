/**
 * Agent chat for one run (issue #27): the flag or CHOPIN_ENABLE_AGENT_CHAT=1 turns it on, reaches the core's options,
 * and the core says it is on for this run while the stored switch stays off; a value that is neither on nor off is
 * refused in a sentence.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAppCore } from "../core/app-core.js";
import { tempDir } from "../sync/test-helpers.js";
import { parseHostArgs } from "./cli-args.js";
import { hostCoreOptions } from "./core-options.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe("agent chat from host mode's command line", () => {
  it("is off unless the flag or CHOPIN_ENABLE_AGENT_CHAT=1 turns it on", () => {
    expect(parseHostArgs([], {}).enableAgentChat).toBe(false);
    expect(parseHostArgs([], { CHOPIN_ENABLE_AGENT_CHAT: "0" }).enableAgentChat).toBe(false);
    expect(parseHostArgs([], { CHOPIN_ENABLE_AGENT_CHAT: "" }).enableAgentChat).toBe(false);
    expect(parseHostArgs([], { CHOPIN_ENABLE_AGENT_CHAT: "1" }).enableAgentChat).toBe(true);
    expect(parseHostArgs(["--enable-agent-chat"], {}).enableAgentChat).toBe(true);
    expect(parseHostArgs(["--enable-agent-chat"], { CHOPIN_ENABLE_AGENT_CHAT: "0" }).enableAgentChat).toBe(true);
  });

  it("refuses any other value of the variable, naming it", () => {
    expect(() => parseHostArgs([], { CHOPIN_ENABLE_AGENT_CHAT: "yes" })).toThrow(
      expect.objectContaining({ code: "invalid-input", message: "CHOPIN_ENABLE_AGENT_CHAT is 1 (agent chat on for this run) or 0; got “yes”." }),
    );
    expect(() => parseHostArgs(["--enable-agent-chat=1"], {})).toThrow(expect.objectContaining({ code: "invalid-input" }));
  });

  it("reaches the core, which says it is on for this run while the stored switch stays off", async () => {
    const dir = tempDir("chopin-agent-chat-args-");
    cleanups.push(() => dir.remove());
    const core = await createAppCore({ ...hostCoreOptions(parseHostArgs(["--enable-agent-chat"], {}), dir.path), mcpPort: 0 });
    cleanups.push(() => core.close());
    expect(await core.api.getExperimentalSettings()).toEqual({ enableAgentChat: false, agentChatByCommandLine: true, agentChatOn: true });
    expect((await core.api.listAgents()).agents.map((a) => a.id)).toEqual(["planner"]);
    // The switch turned off changes nothing for this run.
    expect(await core.api.updateExperimentalSettings({ enableAgentChat: false })).toMatchObject({ agentChatOn: true });
  });
});
