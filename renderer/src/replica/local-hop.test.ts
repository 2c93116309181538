import { Repo } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";
import { describe, expect, it, vi } from "vitest";
import { LOCAL_HOP_SYNC_INTERVAL_MS } from "../../../shared/limits.js";
import { syncPacing } from "../../../shared/sync-pacing.js";
import { paceLocalHop } from "./local-hop.js";

describe("paceLocalHop", () => {
  it("paces the core at LOCAL_HOP_SYNC_INTERVAL_MS while it is connected, and only the core", async () => {
    const { port1, port2 } = new MessageChannel();
    const core = new Repo({ network: [new MessageChannelNetworkAdapter(port1)] });
    const adapter = new MessageChannelNetworkAdapter(port2);
    const window = new Repo({ network: [] });
    paceLocalHop(window, adapter);
    window.networkSubsystem.addNetworkAdapter(adapter);
    await vi.waitFor(() => expect(syncPacing().intervalFor(window.peerId, core.peerId)).toBe(LOCAL_HOP_SYNC_INTERVAL_MS), { timeout: 10_000 });
    expect(syncPacing().intervalFor(core.peerId, window.peerId)).toBeUndefined();
    core.networkSubsystem.disconnect();
    await vi.waitFor(() => expect(syncPacing().intervalFor(window.peerId, core.peerId)).toBeUndefined(), { timeout: 10_000 });
    await Promise.all([core.shutdown(), window.shutdown()]);
    port1.close();
  });
});
