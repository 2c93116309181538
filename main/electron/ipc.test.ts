import { describe, expect, it } from "vitest";
import { EVENT_NAMES, type ChopinApi, type ChopinEvents, type SyncStatus } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { IPC_EVENT, IPC_INVOKE, IPC_REPLICA_PORT, IPC_REPLICA_PORT_REQUEST } from "../../shared/ipc-channels.js";
import { TypedEmitter } from "../util/typed-emitter.js";
import { APP_ORIGIN } from "./app-origin.js";
import { isTrustedSender, registerIpc } from "./ipc.js";

type Handler = (event: unknown, ...args: unknown[]) => unknown;

function setup(apiOverrides: Partial<ChopinApi> = {}) {
  const handlers = new Map<string, Handler>();
  const ipcMain = {
    handle: (channel: string, fn: Handler) => void handlers.set(channel, fn),
    removeHandler: (channel: string) => void handlers.delete(channel),
  };
  const calls: { method: string; args: unknown[] }[] = [];
  const api = new Proxy({} as ChopinApi, {
    get: (_t, method: string) =>
      (apiOverrides as Record<string, unknown>)[method] ??
      (async (...args: unknown[]) => {
        calls.push({ method, args });
        return { method };
      }),
  });
  const events = new TypedEmitter<ChopinEvents>();
  const sent: unknown[][] = [];
  let destroyed = false;
  const contents = { send: (...a: unknown[]) => void sent.push(a), isDestroyed: () => destroyed };
  const posted: unknown[][] = [];
  const mainFrame = { url: `${APP_ORIGIN}/index.html`, parent: null, postMessage: (...a: unknown[]) => void posted.push(a) };
  const fakePort = { name: "renderer end" };
  let portsOpened = 0;
  const dispose = registerIpc({
    ipcMain: ipcMain as never,
    core: { api, events },
    contents: () => contents,
    origins: [APP_ORIGIN],
    openReplicaPort: () => {
      portsOpened++;
      return fakePort as never;
    },
  });
  const trustedEvent = { sender: contents, senderFrame: mainFrame };
  const invoke = (event: unknown, ...args: unknown[]) => handlers.get(IPC_INVOKE)!(event, ...args);
  return {
    handlers, calls, events, sent, posted, fakePort, trustedEvent, invoke, dispose, contents,
    portsOpened: () => portsOpened,
    destroy: () => (destroyed = true),
  };
}

describe("chopin:invoke", () => {
  it("calls the named API method with the caller's arguments and returns the result as data", async () => {
    const t = setup();
    await expect(t.invoke(t.trustedEvent, "renameDocument", ["d1", "New title"])).resolves.toEqual({ ok: true, result: { method: "renameDocument" } });
    expect(t.calls).toEqual([{ method: "renameDocument", args: ["d1", "New title"] }]);
  });

  it.each([["constructor"], ["__proto__"], ["close"], ["attachRendererAdapter"], [42], [null]])("refuses the unknown method %s", async (method) => {
    const t = setup();
    const answer = (await t.invoke(t.trustedEvent, method, [])) as { ok: boolean; error: { code: string } };
    expect(answer.ok).toBe(false);
    expect(answer.error.code).toBe("invalid-input");
    expect(t.calls).toEqual([]);
  });

  it("refuses arguments that are not a list", async () => {
    const t = setup();
    const answer = (await t.invoke(t.trustedEvent, "getDocument", "d1")) as { ok: boolean; error: { code: string } };
    expect(answer).toMatchObject({ ok: false, error: { code: "invalid-input" } });
  });

  it("serializes a ChopinError as its shape and never throws across IPC", async () => {
    const t = setup({
      getDocument: async () => {
        throw new ChopinError("not-found", "No document with that id.", { id: "d9" });
      },
      listDocuments: async () => {
        throw new Error("disk exploded at /home/someone/secret");
      },
    });
    await expect(t.invoke(t.trustedEvent, "getDocument", ["d9"])).resolves.toEqual({
      ok: false,
      error: { code: "not-found", message: "No document with that id.", details: { id: "d9" } },
    });
    const internal = (await t.invoke(t.trustedEvent, "listDocuments", [])) as { ok: false; error: { code: string; message: string } };
    expect(internal.error.code).toBe("internal");
    expect(internal.error.message).not.toContain("secret");
  });

  it.each([
    ["another webContents", (t: ReturnType<typeof setup>) => ({ ...t.trustedEvent, sender: { other: true } })],
    ["an iframe of our window", (t: ReturnType<typeof setup>) => ({ ...t.trustedEvent, senderFrame: { url: `${APP_ORIGIN}/x.html`, parent: {} } })],
    ["our frame showing a foreign page", (t: ReturnType<typeof setup>) => ({ ...t.trustedEvent, senderFrame: { url: "https://evil.example/", parent: null } })],
    ["a look-alike host", (t: ReturnType<typeof setup>) => ({ ...t.trustedEvent, senderFrame: { url: "app://chopin.evil/index.html", parent: null } })],
    ["a sender with no frame", (t: ReturnType<typeof setup>) => ({ ...t.trustedEvent, senderFrame: null })],
  ])("refuses %s", async (_label, makeEvent) => {
    const t = setup();
    const answer = await t.invoke(makeEvent(t), "listDocuments", []);
    expect(answer).toMatchObject({ ok: false, error: { code: "forbidden" } });
    expect(t.calls).toEqual([]);
  });
});

describe("chopin:replica-port-request", () => {
  it("opens a port and posts it to the requesting main frame with the request id", () => {
    const t = setup();
    const answer = t.handlers.get(IPC_REPLICA_PORT_REQUEST)!(t.trustedEvent, 7);
    expect(answer).toEqual({ ok: true, result: null });
    expect(t.posted).toEqual([[IPC_REPLICA_PORT, { requestId: 7 }, [t.fakePort]]]);
  });

  it("refuses a foreign sender and a malformed request id without opening a port", () => {
    const t = setup();
    const foreign = { ...t.trustedEvent, senderFrame: { url: "https://evil.example/", parent: null, postMessage: () => {} } };
    expect(t.handlers.get(IPC_REPLICA_PORT_REQUEST)!(foreign, 1)).toMatchObject({ ok: false, error: { code: "forbidden" } });
    expect(t.handlers.get(IPC_REPLICA_PORT_REQUEST)!(t.trustedEvent, "1")).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(t.portsOpened()).toBe(0);
  });
});

describe("event forwarding", () => {
  it("forwards every core event to the window on chopin:event", () => {
    const t = setup();
    const status: SyncStatus = { state: "connected", relayUrl: "ws://relay", pendingChanges: 0, lastError: null };
    t.events.emit("documents-changed", { ids: ["a"] });
    t.events.emit("sync-status", status);
    t.events.emit("settings-changed", { displayName: "Ann", relayUrl: null, relayTokenSet: false });
    expect(t.sent).toEqual([
      [IPC_EVENT, "documents-changed", { ids: ["a"] }],
      [IPC_EVENT, "sync-status", status],
      [IPC_EVENT, "settings-changed", { displayName: "Ann", relayUrl: null, relayTokenSet: false }],
    ]);
    expect(EVENT_NAMES.every((name) => t.events.listenerCount(name) === 1)).toBe(true);
  });

  it("sends nothing to a destroyed window, and dispose removes handlers and subscriptions", () => {
    const t = setup();
    t.destroy();
    t.events.emit("documents-changed", { ids: ["a"] });
    expect(t.sent).toEqual([]);
    t.dispose();
    expect([...t.handlers.keys()]).toEqual([]);
    expect(EVENT_NAMES.every((name) => t.events.listenerCount(name) === 0)).toBe(true);
  });
});

describe("isTrustedSender", () => {
  it("accepts only our contents' top frame on a trusted origin", () => {
    const contents = {};
    const frame = { url: `${APP_ORIGIN}/index.html#/doc/1`, parent: null };
    expect(isTrustedSender({ sender: contents, senderFrame: frame }, contents, [APP_ORIGIN])).toBe(true);
    expect(isTrustedSender({ sender: contents, senderFrame: frame }, null, [APP_ORIGIN])).toBe(false);
    expect(isTrustedSender({ sender: contents, senderFrame: { ...frame, url: "file:///etc/passwd" } }, contents, [APP_ORIGIN])).toBe(false);
  });
});
