import { createContext, runInContext } from "node:vm";
import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { API_METHODS, EVENT_NAMES, type ChopinPreloadApi } from "../shared/api.js";
import { WINDOW_REPLICA_PORT_MESSAGE, type WireResult } from "../shared/ipc-channels.js";
import type { IsolatedBridge } from "./isolated-bridge.js";
import { installMainWorldBridge } from "./main-world.js";

/**
 * A bare page world: a fresh vm context whose global object stands in for `window` (message events, postMessage).
 * The installer is evaluated there FROM ITS SOURCE TEXT, as contextBridge.executeInMainWorld does, so any reference
 * to an import or module-level value would fail here too.
 */
function pageWorld() {
  const listeners = new Set<(e: unknown) => void>();
  const sandbox: Record<string, unknown> = {
    addEventListener: (type: string, fn: (e: unknown) => void) => type === "message" && listeners.add(fn),
    removeEventListener: (type: string, fn: (e: unknown) => void) => type === "message" && listeners.delete(fn),
    // Like window.postMessage: delivered later, as a MessageEvent whose source is the window itself.
    postMessage: (data: unknown, _origin: string, transfer: unknown[] = []) =>
      setTimeout(() => {
        for (const fn of [...listeners]) fn({ data, source: context, ports: transfer });
      }, 0),
  };
  const vmContext = createContext(sandbox);
  // The page's `globalThis` (what the installer sees as window).
  const context = runInContext("globalThis", vmContext) as Record<string, unknown>;
  const install = runInContext(`(${installMainWorldBridge.toString()})`, vmContext) as typeof installMainWorldBridge;
  return { context, install, listeners };
}

function fakeIsolated(overrides: Partial<IsolatedBridge> = {}) {
  const invoked: { method: string; args: unknown[] }[] = [];
  const isolated: IsolatedBridge = {
    invoke: async (method, args): Promise<WireResult> => {
      invoked.push({ method, args });
      return { ok: true, result: { echoed: method } };
    },
    on: () => () => {},
    requestReplicaPort: async () => ({ ok: true, result: null }),
    ...overrides,
  };
  return { isolated, invoked };
}

function installed(isolated: IsolatedBridge) {
  const world = pageWorld();
  world.install(isolated, [...API_METHODS], WINDOW_REPLICA_PORT_MESSAGE);
  return { ...world, chopin: world.context.chopin as ChopinPreloadApi };
}

describe("window.chopin in the page world", () => {
  it("has exactly api, on and replicaPort, and api has exactly the API_METHODS", () => {
    const { chopin } = installed(fakeIsolated().isolated);
    expect(Object.keys(chopin).sort()).toEqual(["api", "on", "replicaPort"]);
    expect(Object.keys(chopin.api).sort()).toEqual([...API_METHODS].sort());
    expect(Object.values(chopin.api).every((f) => typeof f === "function")).toBe(true);
  });

  it("cannot be replaced or extended by page scripts", () => {
    const { chopin, context } = installed(fakeIsolated().isolated);
    expect(Object.isFrozen(chopin)).toBe(true);
    expect(Object.isFrozen(chopin.api)).toBe(true);
    expect(Object.getOwnPropertyDescriptor(context, "chopin")).toMatchObject({ writable: false, configurable: false });
  });

  it("calls through with the arguments and resolves with the result", async () => {
    const { isolated, invoked } = fakeIsolated();
    const { chopin } = installed(isolated);
    await expect(chopin.api.renameDocument("d1", "Plan")).resolves.toEqual({ echoed: "renameDocument" });
    expect(invoked).toEqual([{ method: "renameDocument", args: ["d1", "Plan"] }]);
  });

  it("rejects with an error that carries the ChopinError code, message and details", async () => {
    const { isolated } = fakeIsolated({
      invoke: async () => ({ ok: false, error: { code: "revision-conflict", message: "Someone else changed it.", details: { revision: "r2" } } }),
    });
    const { chopin } = installed(isolated);
    const error = (await chopin.api.getDocument("d1").catch((e: unknown) => e)) as Error & { code: string; details: unknown };
    expect(error.name).toBe("ChopinError");
    expect(error.message).toBe("Someone else changed it.");
    expect(error.code).toBe("revision-conflict");
    expect(error.details).toEqual({ revision: "r2" });
  });

  it("subscribes through the isolated bridge", () => {
    const subscribed: string[] = [];
    const { chopin } = installed(fakeIsolated({ on: (event) => (subscribed.push(event), () => {}) }).isolated);
    for (const name of EVENT_NAMES) expect(typeof chopin.on(name, () => {})).toBe("function");
    expect(subscribed).toEqual([...EVENT_NAMES]);
  });
});

describe("replicaPort()", () => {
  it("resolves with the port the preload posts for this request, ignoring other messages", async () => {
    let page!: ReturnType<typeof installed>;
    const channel = new MessageChannel();
    const requested: number[] = [];
    const { isolated } = fakeIsolated({
      requestReplicaPort: async (requestId) => {
        requested.push(requestId);
        const post = page.context.postMessage as (d: unknown, o: string, t?: unknown[]) => void;
        post({ type: WINDOW_REPLICA_PORT_MESSAGE, requestId: requestId + 100 }, "*", [new MessageChannel().port1]); // someone else's
        post({ type: "other", requestId }, "*", [new MessageChannel().port1]);
        post({ type: WINDOW_REPLICA_PORT_MESSAGE, requestId }, "*", []); // no port
        post({ type: WINDOW_REPLICA_PORT_MESSAGE, requestId }, "*", [channel.port1]);
        return { ok: true, result: null };
      },
    });
    page = installed(isolated);
    const port = await page.chopin.replicaPort();
    expect(port).toBe(channel.port1);
    expect(requested).toEqual([1]);
    expect(page.listeners.size).toBe(0);
    channel.port1.close();
  });

  it("ignores a port message whose source is not the window", async () => {
    let page!: ReturnType<typeof installed>;
    const channel = new MessageChannel();
    const { isolated } = fakeIsolated({
      requestReplicaPort: async (requestId) => {
        setTimeout(() => {
          for (const fn of [...page.listeners]) fn({ data: { type: WINDOW_REPLICA_PORT_MESSAGE, requestId }, source: {}, ports: [new MessageChannel().port1] });
          (page.context.postMessage as (d: unknown, o: string, t?: unknown[]) => void)({ type: WINDOW_REPLICA_PORT_MESSAGE, requestId }, "*", [channel.port1]);
        }, 0);
        return { ok: true, result: null };
      },
    });
    page = installed(isolated);
    expect(await page.chopin.replicaPort()).toBe(channel.port1);
    channel.port1.close();
  });

  it("rejects with the refusal when main will not give a port, and stops listening", async () => {
    const { isolated } = fakeIsolated({
      requestReplicaPort: async () => ({ ok: false, error: { code: "forbidden", message: "Only the Chopin window may use this channel." } }),
    });
    const page = installed(isolated);
    await expect(page.chopin.replicaPort()).rejects.toMatchObject({ code: "forbidden" });
    expect(page.listeners.size).toBe(0);
  });
});
