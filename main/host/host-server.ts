/**
 * Host mode: the core serves the renderer on 127.0.0.1 and bridges the API contract over a WebSocket, so the same UI
 * runs in a browser tab (and in every e2e test). Static files need no secret (they hold no data); the two sockets
 * (/api for calls and events, /sync for the renderer's Automerge replica) require the per-launch secret and our own
 * Origin, and every request must name our loopback Host, so another local page or a rebinding domain cannot drive it.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { HOST_SECRET_BYTES, MAX_BRIDGE_FRAME_BYTES, MAX_HOST_SYNC_FRAME_BYTES } from "../util/limits.js";
import { LOOPBACK_HOST } from "../../shared/defaults.js";
import type { AppCore } from "../core/types.js";
import { serveApiSocket } from "./api-socket.js";
import { GuardedSyncServerAdapter } from "./guarded-sync-adapter.js";
import { isAllowedHost, isAllowedOrigin, secretMatches } from "./loopback-guard.js";
import { serveStatic } from "./static-files.js";

export interface HostServerOptions {
  core: AppCore;
  /** Folder with the built renderer (index.html and assets). */
  staticDir: string;
  /** 0 picks a free port. */
  port: number;
  /** Fixed secret for tests; by default a fresh random one per launch. */
  secret?: string;
}

export interface HostServer {
  port: number;
  secret: string;
  /** The address to open: carries the secret in the fragment, which browsers never send to a server. */
  url: string;
  close(): Promise<void>;
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${reason}`);
}

export async function startHostServer(options: HostServerOptions): Promise<HostServer> {
  const secret = options.secret ?? randomBytes(HOST_SECRET_BYTES).toString("base64url");
  let port = options.port;

  const http = createServer((req, res) => {
    if (!isAllowedHost(req.headers.host, port)) {
      res.writeHead(421, { "content-type": "text/plain" }).end("Misdirected request");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    serveStatic(options.staticDir, req, res);
  });

  const apiWss = new WebSocketServer({ noServer: true, maxPayload: MAX_BRIDGE_FRAME_BYTES });
  const syncWss = new WebSocketServer({ noServer: true, maxPayload: MAX_HOST_SYNC_FRAME_BYTES });
  apiWss.on("connection", (socket) => serveApiSocket(socket, options.core.api, options.core.events));
  // ws reports an oversized or broken frame as an 'error' on the socket (and closes it, 1009); the automerge adapter
  // listens for none, and an unheard 'error' would throw out of the core.
  syncWss.on("connection", (socket) => socket.on("error", () => undefined));
  // automerge-repo types its server against isomorphic-ws; it is the same `ws` server at run time.
  options.core.attachRendererAdapter(new GuardedSyncServerAdapter(syncWss as unknown as ConstructorParameters<typeof GuardedSyncServerAdapter>[0]));

  http.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const url = new URL(req.url ?? "/", "http://host");
    if (!isAllowedHost(req.headers.host, port)) return refuseUpgrade(socket, 421, "Misdirected Request");
    if (!isAllowedOrigin(req.headers.origin, port)) return refuseUpgrade(socket, 403, "Forbidden");
    if (!secretMatches(url.searchParams.get("secret"), secret)) return refuseUpgrade(socket, 401, "Unauthorized");
    const target = url.pathname === "/api" ? apiWss : url.pathname === "/sync" ? syncWss : null;
    if (!target) return refuseUpgrade(socket, 404, "Not Found");
    target.handleUpgrade(req, socket, head, (ws) => target.emit("connection", ws, req));
  });

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, LOOPBACK_HOST, () => {
      http.off("error", reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;

  let closed: Promise<void> | null = null;
  return {
    port,
    secret,
    url: `http://${LOOPBACK_HOST}:${port}/#secret=${secret}`,
    close: () =>
      (closed ??= (async () => {
        for (const ws of [...apiWss.clients, ...syncWss.clients]) ws.terminate();
        apiWss.close();
        syncWss.close();
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      })()),
  };
}
