/**
 * automerge-repo's own network adapter acceptance suite over our relay wire: peer 0 is a Repo on the relay-side
 * RelayServerAdapter (behind a real HTTP upgrade on 127.0.0.1), peers 1 and 2 are RelayClientAdapters. The suite runs
 * each pairing in both directions, so both adapters are exercised as "Alice".
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
import { runNetworkAdapterTests } from "@automerge/automerge-repo/helpers/tests/network-adapter-tests.js";
import { RelayServerAdapter } from "../../sync-relay/server-adapter.js";
import { RelayClientAdapter } from "./relay-client-adapter.js";

runNetworkAdapterTests(async () => {
  const server = createServer();
  const wss = new WebSocketServer({ noServer: true });
  const serverAdapter = new RelayServerAdapter();
  server.on("upgrade", (req, socket, head) => {
    wss.handleUpgrade(req, socket, head, (ws) => serverAdapter.accept(ws, { user: "suite", tokenHash: "none" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const client = () => new RelayClientAdapter({ url, token: "unused", minBackoffMs: 20, maxBackoffMs: 100 });
  const clients = [client(), client()];
  return {
    adapters: [serverAdapter, clients[0], clients[1]],
    teardown: () => {
      for (const c of clients) c.disconnect();
      serverAdapter.disconnect();
      wss.close();
      server.closeAllConnections();
      server.close();
    },
  };
}, "RelayServerAdapter + RelayClientAdapter");
