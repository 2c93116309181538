/**
 * The registry's own ordering (issue #27): a chat noted again while its registration is on its way (registerAgain,
 * when a new relay token is to be linked at the relay) is registered once more with what is current then, not taken
 * as done by the registration already under way, and whenQuiet answers only once that second one is answered. A
 * relay stand-in whose answers the test releases, so the race is driven, not waited for. A person's stars in a team are
 * registered the same way: once a run, again after the relay could not be reached or a new relay token, never for a
 * device's own scope.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { AgentChatTable } from "../../shared/node/agent-chat-table.js";
import { waitFor } from "../../shared/wait-for.js";
import { AgentChatRegistry, starsKey } from "./agent-chat-registry.js";

const scope = { kind: "team" as const, teamIndexId: "team-index" };
const chat = { agentId: "scout", person: "github:alice", planId: "2JaYLpBbb1xw6L6cpSdw79c8qfYE" as DocumentId };

describe("the agent chat registry", () => {
  it("registers a chat noted again mid-registration once more, and is quiet only after that one", async () => {
    const db = new BetterSqlite3(":memory:");
    let token = "none";
    const calls: { token: string; answer: () => void }[] = [];
    const registry = new AgentChatRegistry({
      local: new AgentChatTable(db),
      deviceId: "device-1",
      relay: {
        register: () => {
          const sentWith = token;
          return new Promise<void>((resolve) => calls.push({ token: sentWith, answer: resolve }));
        },
        registerStars: async () => undefined,
        list: async () => [],
        worthRetrying: () => true,
      },
    });
    try {
      registry.noteBegun(scope, chat);
      await waitFor(() => calls.length === 1, "the first registration sent");
      // A new relay token arrives while that one is on its way: every chat is registered again, to link it.
      token = "new relay token";
      registry.registerAgain();
      registry.noteBegun(scope, chat);
      let quiet = false;
      void registry.whenQuiet().then(() => (quiet = true));
      calls[0]!.answer();
      await waitFor(() => calls.length === 2, "registered again with the new token");
      expect(calls[1]!.token).toBe("new relay token");
      expect(quiet).toBe(false);
      expect(registry.outcome(chat.planId)).toBeUndefined();
      calls[1]!.answer();
      await waitFor(() => quiet, "quiet once the second registration is answered");
      expect(registry.outcome(chat.planId)).toBeNull();
    } finally {
      registry.close();
      db.close();
    }
  });

  it("registers the person's stars in a team once, tries again after the relay could not be reached, and never a device's", async () => {
    const db = new BetterSqlite3(":memory:");
    const sent: string[] = [];
    let reachable = false;
    const registry = new AgentChatRegistry({
      local: new AgentChatTable(db),
      deviceId: "device-1",
      retryMinMs: 1,
      retryMaxMs: 5,
      relay: {
        register: async () => undefined,
        registerStars: async (person) => {
          sent.push(person);
          if (!reachable) throw new Error("relay down");
        },
        list: async () => [],
        worthRetrying: () => true,
      },
    });
    try {
      registry.noteStars({ kind: "device", deviceId: "device-1" }, "device:device-1");
      registry.noteStars(scope, "github:alice");
      await waitFor(() => sent.length >= 1, "the first try");
      reachable = true;
      await registry.whenQuiet();
      await waitFor(() => registry.outcome(starsKey(scope.teamIndexId, "github:alice")) === null, "registered once the relay answers");
      const tries = sent.length;
      expect(sent.every((person) => person === "github:alice")).toBe(true);
      // Noted again in the same run: nothing is sent; a new relay token registers it again (its link).
      registry.noteStars(scope, "github:alice");
      await registry.whenQuiet();
      expect(sent.length).toBe(tries);
      registry.registerAgain();
      registry.noteStars(scope, "github:alice");
      await waitFor(() => sent.length === tries + 1, "registered again after registerAgain");
      await registry.whenQuiet();
    } finally {
      registry.close();
      db.close();
    }
  });

  it("never holds a chat's registration back behind stars the relay cannot take yet (a relay from before them)", async () => {
    const db = new BetterSqlite3(":memory:");
    const chats: string[] = [];
    const registry = new AgentChatRegistry({
      local: new AgentChatTable(db),
      deviceId: "device-1",
      retryMinMs: 60_000,
      relay: {
        register: async (registered) => void chats.push(registered.planId),
        registerStars: async () => {
          throw new Error("404: this relay has no /v1/agent-stars");
        },
        list: async () => [],
        worthRetrying: () => true,
      },
    });
    try {
      registry.noteStars(scope, "github:alice");
      registry.noteBegun(scope, chat);
      await waitFor(() => registry.outcome(chat.planId) === null, "the chat registered though the stars wait");
      expect(chats).toEqual([chat.planId]);
      expect(registry.outcome(starsKey(scope.teamIndexId, "github:alice"))).toBeUndefined();
    } finally {
      registry.close();
      db.close();
    }
  });
});
