/**
 * Baseline relay: Yjs as its reference server runs it (@y/websocket-server 0.1.1 `setupWSConnection`, one room per
 * document name, in memory, no auth). Runs in its own process so its CPU is its own.
 * Prints `BENCH_READY {"port":N}`; stops on SIGTERM.
 */
import { WebSocketServer } from "ws";
import { setupWSConnection } from "@y/websocket-server/utils";
import { announceReady, onTerminate } from "../lib/child.js";

const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
wss.on("connection", (conn, req) => setupWSConnection(conn, req));

onTerminate(() => {
  for (const client of wss.clients) client.terminate();
  wss.close();
});
const address = wss.address();
announceReady({ port: typeof address === "object" && address ? address.port : 0 });
