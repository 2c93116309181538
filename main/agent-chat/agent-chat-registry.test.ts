/**
 * The registry's own ordering (issue #27): a chat noted again while its registration is on its way (registerAgain,
 * when a new relay token is to be linked at the relay) is registered once more with what is current then, not taken
 * as done by the registration already under way, and whenQuiet answers only once that second one is answered. A
 * relay stand-in whose answers the test releases, so the race is driven, not waited for.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { AgentChatTable } from "../../shared/node/agent-chat-table.js";
import { waitFor } from "../../shared/wait-for.js";
import { AgentChatRegistry } from "./agent-chat-registry.js";

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
});
