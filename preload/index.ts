/**
 * The sandboxed preload (built as CommonJS: sandboxed preloads cannot be ES modules). It gives the page
 * window.chopin = ChopinPreloadApi and nothing else: ipcRenderer never reaches the page.
 * Why executeInMainWorld and not exposeInMainWorld: exposeInMainWorld copies values across worlds and cannot carry a
 * MessagePort, so `replicaPort()` would have nothing to resolve with. Instead the preload installs
 * installMainWorldBridge in the page world and hands it the isolated bridge (contextBridge proxies its functions).
 * The port travels main -> isolated world (ipcRenderer 'chopin:replica-port') -> page (window.postMessage with
 * transfer), where replicaPort() picks it up by request id.
 */
import { contextBridge, ipcRenderer } from "electron";
import { API_METHODS } from "../shared/api.js";
import { WINDOW_REPLICA_PORT_MESSAGE } from "../shared/ipc-channels.js";
import { createIsolatedBridge } from "./isolated-bridge.js";
import { installMainWorldBridge } from "./main-world.js";

const isolated = createIsolatedBridge(ipcRenderer, window);

contextBridge.executeInMainWorld({
  func: installMainWorldBridge,
  args: [isolated, [...API_METHODS], WINDOW_REPLICA_PORT_MESSAGE],
});
