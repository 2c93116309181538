/**
 * A running Planner turn reaches a teammate's app through a real relay (issue #26: the running turn shows in every
 * window of the plan): Alice's app runs the Planner on our fake model, which streams its answer slowly; Bob's app,
 * with the conversation open, hears the turn's text grow before the answer is an entry, then its end. (Who is
 * believed is remote-turn's rule, tested in turn-share.test.ts; this shows the holder's own messages pass it.)
 */
import type { DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import type { PlannerTurnProgress } from "../../shared/api.js";
import { waitFor } from "../../shared/wait-for.js";
import { startRelay } from "../../sync-relay/server.js";
import { startFakeOpenAI } from "../../test-support/fake-openai/server.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { tempDir } from "../sync/test-helpers.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe("a running turn, shared with teammates", () => {
  it("streams to a teammate's app through the relay, ends there, believed from the Planner's app", { timeout: 120_000 }, async () => {
    const model = await startFakeOpenAI();
    cleanups.push(() => model.close());
    const relayDir = tempDir("chopin-share-relay-");
    cleanups.push(() => relayDir.remove());
    const relay = await startRelay({ dataDir: relayDir.path });
    cleanups.push(() => relay.close());
    const core = async (user: string, withModel: boolean): Promise<AppCore> => {
      const dir = tempDir(`chopin-share-${user}-`);
      cleanups.push(() => dir.remove());
      const app = await createAppCore({
        dataDir: dir.path,
        mcpPort: 0,
        relayUrl: relay.url,
        relayToken: relay.users.add(user).token,
        ...(withModel ? { planner: { provider: { type: "openai", baseUrl: model.url, model: "fake-gpt", apiKey: model.apiKey } } } : {}),
      });
      cleanups.push(() => app.close());
      await app.api.updateSettings({ displayName: user });
      return app;
    };
    const alice = await core("alice", true);
    const bob = await core("bob", false);
    await waitFor(async () => (await alice.api.getSyncStatus()).state === "connected" && (await bob.api.getSyncStatus()).state === "connected", "both connected", 30_000);
    const plan = await alice.api.createDocument({ title: "Launch", shared: true });
    const id = plan.id as DocumentId;
    await waitFor(async () => (await bob.api.listDocuments()).some((d) => d.id === id), "bob has the plan", 30_000);
    await bob.api.readConversation(id);
    await bob.api.getPlannerState(id);

    const heardByBob: PlannerTurnProgress[] = [];
    bob.events.on("planner-turn", (p) => heardByBob.push(p));
    let release: () => void = () => undefined;
    const mayFinish = new Promise<void>((resolve) => (release = resolve));
    model.script(async () => {
      await mayFinish;
      return { text: "Here is a first outline of the launch.", chunks: 6, delayMs: 60 };
    });
    // The first chunks stream only once Bob's app knows Alice runs the Planner (else it would rightly not believe them).
    await alice.api.postMessage(id, { text: "@Planner outline it", to: "planner", clientRequestId: "ask" });
    await waitFor(async () => (await bob.api.getPlannerState(id)).state === "running-elsewhere", "bob's app knows alice runs it", 30_000);
    release();
    await waitFor(() => heardByBob.some((p) => p.done), "bob's app heard the turn end", 60_000);
    const streamed = heardByBob.filter((p) => !p.done);
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.at(-1)!.text).toContain("Here is a first");
    await waitFor(async () => (await bob.api.readConversation(id)).entries.some((e) => e.text === "Here is a first outline of the launch."), "the answer reached bob", 30_000);

  });
});
