import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { IPC_EVENT, IPC_INVOKE, IPC_REPLICA_PORT, IPC_REPLICA_PORT_REQUEST, WINDOW_REPLICA_PORT_MESSAGE } from "../shared/ipc-channels.js";
import { createIsolatedBridge } from "./isolated-bridge.js";

type IpcListener = (event: { ports: readonly MessagePort[] }, ...args: unknown[]) => void;

function setup(answer: (channel: string, ...args: unknown[]) => unknown = () => ({ ok: true, result: "fine" })) {
  const listeners = new Map<string, IpcListener[]>();
  const invoked: unknown[][] = [];
  const ipc = {
    invoke: async (channel: string, ...args: unknown[]) => {
      invoked.push([channel, ...args]);
      return answer(channel, ...args);
    },
    on: (channel: string, fn: IpcListener) => listeners.set(channel, [...(listeners.get(channel) ?? []), fn]),
  };
  const posted: unknown[][] = [];
  const bridge = createIsolatedBridge(ipc, { postMessage: (...a: unknown[]) => void posted.push(a) });
  const fromMain = (channel: string, event: { ports: readonly MessagePort[] }, ...args: unknown[]) => {
    for (const fn of listeners.get(channel) ?? []) fn(event, ...args);
  };
  return { bridge, invoked, posted, fromMain, listeners };
}

describe("isolated bridge: invoke", () => {
  it("sends known methods over chopin:invoke and returns main's answer", async () => {
    const t = setup();
    await expect(t.bridge.invoke("getDocument", ["d1"])).resolves.toEqual({ ok: true, result: "fine" });
    expect(t.invoked).toEqual([[IPC_INVOKE, "getDocument", ["d1"]]]);
  });

  it("refuses unknown methods and non-list arguments without touching IPC", async () => {
    const t = setup();
    await expect(t.bridge.invoke("close", [])).resolves.toMatchObject({ ok: false, error: { code: "invalid-input" } });
    await expect(t.bridge.invoke("getDocument", "d1" as never)).resolves.toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(t.invoked).toEqual([]);
  });

  it("passes error shapes through and turns malformed answers and IPC failures into 'internal'", async () => {
    const shape = { code: "not-found", message: "No such document.", details: { id: "x" } };
    await expect(setup(() => ({ ok: false, error: shape })).bridge.invoke("getDocument", ["x"])).resolves.toEqual({ ok: false, error: shape });
    await expect(setup(() => "garbage").bridge.invoke("getDocument", ["x"])).resolves.toMatchObject({ ok: false, error: { code: "internal" } });
    await expect(setup(() => ({ ok: false, error: { code: "made-up", message: "m" } })).bridge.invoke("getDocument", ["x"])).resolves.toMatchObject({
      ok: false,
      error: { code: "internal" },
    });
    const failing = setup(() => {
      throw new Error("No handler registered for 'chopin:invoke'");
    });
    await expect(failing.bridge.invoke("getDocument", ["x"])).resolves.toMatchObject({ ok: false, error: { code: "internal" } });
  });
});

describe("isolated bridge: events", () => {
  it("delivers known events to their listeners until unsubscribed, and drops unknown ones", () => {
    const t = setup();
    const got: unknown[] = [];
    const off = t.bridge.on("documents-changed", (p) => got.push(p));
    t.bridge.on("sync-status", () => {
      throw new Error("a broken listener");
    });
    const alsoGot: unknown[] = [];
    t.bridge.on("sync-status", (p) => alsoGot.push(p));
    t.fromMain(IPC_EVENT, { ports: [] }, "documents-changed", { ids: ["a"] });
    t.fromMain(IPC_EVENT, { ports: [] }, "sync-status", { state: "offline" });
    t.fromMain(IPC_EVENT, { ports: [] }, "not-an-event", { x: 1 });
    off();
    t.fromMain(IPC_EVENT, { ports: [] }, "documents-changed", { ids: ["b"] });
    expect(got).toEqual([{ ids: ["a"] }]);
    expect(alsoGot).toEqual([{ state: "offline" }]);
    // One IPC listener serves every subscription.
    expect(t.listeners.get(IPC_EVENT)).toHaveLength(1);
  });

  it("refuses subscriptions to unknown events", () => {
    expect(() => setup().bridge.on("constructor", () => {})).toThrow(/not an event/);
  });
});

describe("isolated bridge: replica port", () => {
  it("asks main for a port and forwards the port it receives into the page with its request id", async () => {
    const t = setup(() => ({ ok: true, result: null }));
    await expect(t.bridge.requestReplicaPort(3)).resolves.toEqual({ ok: true, result: null });
    expect(t.invoked).toEqual([[IPC_REPLICA_PORT_REQUEST, 3]]);
    const { port1 } = new MessageChannel();
    t.fromMain(IPC_REPLICA_PORT, { ports: [port1 as unknown as MessagePort] }, { requestId: 3 });
    expect(t.posted).toEqual([[{ type: WINDOW_REPLICA_PORT_MESSAGE, requestId: 3 }, "*", [port1]]]);
    port1.close();
  });

  it("forwards nothing without a port or a request id, and refuses non-integer ids", async () => {
    const t = setup();
    t.fromMain(IPC_REPLICA_PORT, { ports: [] }, { requestId: 1 });
    const { port1 } = new MessageChannel();
    t.fromMain(IPC_REPLICA_PORT, { ports: [port1 as unknown as MessagePort] }, null);
    expect(t.posted).toEqual([]);
    await expect(t.bridge.requestReplicaPort(1.5)).resolves.toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(t.invoked).toEqual([]);
    port1.close();
  });
});
