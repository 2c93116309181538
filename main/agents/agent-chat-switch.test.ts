/**
 * The agent-chat switch at rest: off at first, kept on this device, the command line turning it on for its run whatever
 * is stored, and a change the database refuses (a full disk) said as 'storage-failure' with nothing changed.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fillDatabase } from "../store/full-database.js";
import { openLocalDb } from "../store/local-db.js";
import { getSetting } from "../store/settings.js";
import { AGENT_CHAT_SETTING, AgentChatSwitch } from "./agent-chat-switch.js";

const openDb = () => openLocalDb(mkdtempSync(join(tmpdir(), "chopin-agent-chat-")));

describe("the agent-chat switch", () => {
  it("is off at first, and kept on this device once turned on", () => {
    const db = openDb();
    const chat = new AgentChatSwitch(db, false);
    expect(chat.get()).toEqual({ enableAgentChat: false, agentChatByCommandLine: false, agentChatOn: false });
    expect(chat.update({ enableAgentChat: true })).toEqual({ enableAgentChat: true, agentChatByCommandLine: false, agentChatOn: true });
    expect(new AgentChatSwitch(db, false).on()).toBe(true);
    expect(chat.update({ enableAgentChat: false }).agentChatOn).toBe(false);
    expect(getSetting(db, AGENT_CHAT_SETTING)).toBeNull();
    expect(chat.update({})).toMatchObject({ enableAgentChat: false });
  });

  it("is on for a run the command line turned it on, whatever is stored", () => {
    const chat = new AgentChatSwitch(openDb(), true);
    expect(chat.get()).toEqual({ enableAgentChat: false, agentChatByCommandLine: true, agentChatOn: true });
    expect(chat.update({ enableAgentChat: false }).agentChatOn).toBe(true);
  });

  it("says a change the database refuses, and changes nothing", () => {
    const db = openDb();
    const chat = new AgentChatSwitch(db, false);
    const disk = fillDatabase(db, ["settings"]);
    expect(() => chat.update({ enableAgentChat: true })).toThrow(expect.objectContaining({ code: "storage-failure", message: expect.stringMatching(/Nothing was changed/) }));
    expect(chat.on()).toBe(false);
    disk.free();
    expect(chat.update({ enableAgentChat: true }).agentChatOn).toBe(true);
  });
});
