import { describe, expect, it, vi } from "vitest";
import { API_METHODS } from "../shared/api.js";
import { IPC_EVENT, IPC_REPLICA_PORT, WINDOW_REPLICA_PORT_MESSAGE } from "../shared/ipc-channels.js";
import { installMainWorldBridge } from "./main-world.js";

const electron = vi.hoisted(() => ({
  executed: [] as { func: unknown; args: unknown[] }[],
  exposed: [] as unknown[],
  ipcChannels: [] as string[],
}));
vi.mock("electron", () => ({
  contextBridge: {
    executeInMainWorld: (script: { func: unknown; args: unknown[] }) => electron.executed.push(script),
    exposeInMainWorld: (...a: unknown[]) => electron.exposed.push(a),
  },
  ipcRenderer: {
    invoke: async () => ({ ok: true, result: null }),
    on: (channel: string) => electron.ipcChannels.push(channel),
  },
}));
vi.stubGlobal("window", { postMessage: () => {} });

await import("./index.js");

describe("the preload", () => {
  it("installs window.chopin in the page world with exactly the API methods, exposing nothing else", () => {
    expect(electron.executed).toHaveLength(1);
    const [{ func, args }] = electron.executed;
    expect(func).toBe(installMainWorldBridge);
    const [isolated, methods, messageType] = args as [Record<string, unknown>, string[], string];
    expect(methods).toEqual([...API_METHODS]);
    expect(messageType).toBe(WINDOW_REPLICA_PORT_MESSAGE);
    // The page gets these three functions (proxied by contextBridge) and never ipcRenderer.
    expect(Object.keys(isolated).sort()).toEqual(["invoke", "on", "requestReplicaPort"]);
    expect(electron.exposed).toEqual([]);
  });

  it("listens on the event and replica-port channels only", () => {
    expect(electron.ipcChannels.sort()).toEqual([IPC_EVENT, IPC_REPLICA_PORT].sort());
  });
});
