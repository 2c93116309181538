/**
 * Test helper: two real automerge-repo Repos joined by a real MessageChannel, the same transport the Electron shell
 * uses between the core and the renderer replica.
 */
import { Repo } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";

/** `announce: false`: the core only answers what the replica asks for, as the app's core does for a window. */
export function linkedRepos(options: { announce?: boolean } = {}): { core: Repo; replica: Repo; close(): void } {
  const { port1, port2 } = new MessageChannel();
  const announce = options.announce ?? true;
  const core = new Repo({
    network: [new MessageChannelNetworkAdapter(port1)],
    shareConfig: { announce: async () => announce, access: async () => true },
  });
  const replica = new Repo({ network: [new MessageChannelNetworkAdapter(port2)], sharePolicy: async () => true });
  return {
    core,
    replica,
    close() {
      void core.shutdown();
      void replica.shutdown();
      port1.close();
      port2.close();
    },
  };
}
