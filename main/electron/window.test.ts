import { beforeEach, describe, expect, it, vi } from "vitest";

const electron = vi.hoisted(() => {
  class FakeWebContents {
    listeners = new Map<string, ((...a: unknown[]) => void)[]>();
    openHandler: ((details: { url: string }) => { action: string }) | null = null;
    on(event: string, fn: (...a: unknown[]) => void) {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), fn]);
      return this;
    }
    setWindowOpenHandler(fn: (details: { url: string }) => { action: string }) {
      this.openHandler = fn;
    }
    /** Fires an event the way Electron does and reports whether some listener prevented it. */
    fire(event: string, url: string): boolean {
      let prevented = false;
      const e = { url, preventDefault: () => (prevented = true) };
      for (const fn of this.listeners.get(event) ?? []) fn(e);
      return prevented;
    }
  }
  const created: { options: Record<string, unknown>; win: unknown }[] = [];
  return { FakeWebContents, created, openExternal: vi.fn(async (_url: string) => undefined) };
});

vi.mock("electron", async () => {
  const { EventEmitter } = await import("node:events");
  class BrowserWindow extends EventEmitter {
    webContents = new electron.FakeWebContents();
    loaded: string[] = [];
    constructor(readonly options: Record<string, unknown>) {
      super();
      electron.created.push({ options, win: this });
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
    show() {}
  }
  return { BrowserWindow, shell: { openExternal: electron.openExternal } };
});

const { createMainWindow, guardWebContents, secureWebPreferences } = await import("./window.js");
const { APP_ENTRY_URL, APP_ORIGIN } = await import("./app-origin.js");

beforeEach(() => {
  electron.created.length = 0;
  electron.openExternal.mockClear();
});

describe("the main window", () => {
  it("is created with context isolation, the sandbox and no Node, and loads the app origin", () => {
    const win = createMainWindow({ preloadPath: "/app/out/preload/index.cjs", url: APP_ENTRY_URL, origins: [APP_ORIGIN] }) as unknown as {
      loaded: string[];
    };
    const prefs = electron.created[0].options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      preload: "/app/out/preload/index.cjs",
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(win.loaded).toEqual([APP_ENTRY_URL]);
  });

  it("keeps every security preference whatever the preload path", () => {
    const prefs = secureWebPreferences("x");
    expect([prefs.contextIsolation, prefs.sandbox, prefs.nodeIntegration, prefs.webSecurity]).toEqual([true, true, false, true]);
  });
});

describe("guardWebContents", () => {
  function guarded(origins = [APP_ORIGIN]) {
    const contents = new electron.FakeWebContents();
    guardWebContents(contents as never, origins);
    return contents;
  }

  it.each([
    "https://evil.example/",
    "http://127.0.0.1:47600/",
    "file:///etc/passwd",
    "app://chopin.evil/index.html",
    "app://other/index.html",
    "javascript:alert(1)",
    "not a url",
  ])("blocks navigation to %s", (url) => {
    const contents = guarded();
    expect(contents.fire("will-navigate", url)).toBe(true);
    expect(contents.fire("will-redirect", url)).toBe(true);
  });

  it("lets the app navigate within its own origin, and the dev server only when trusted", () => {
    const contents = guarded([APP_ORIGIN, "http://localhost:5173"]);
    expect(contents.fire("will-navigate", `${APP_ORIGIN}/index.html#/doc/1`)).toBe(false);
    expect(contents.fire("will-navigate", "http://localhost:5173/")).toBe(false);
    expect(guarded().fire("will-navigate", "http://localhost:5173/")).toBe(true);
  });

  it("denies every window.open and sends only http(s) links to the OS browser", () => {
    const contents = guarded();
    expect(contents.openHandler!({ url: "https://github.com/chopin/plans" })).toEqual({ action: "deny" });
    expect(contents.openHandler!({ url: "http://example.com/" })).toEqual({ action: "deny" });
    expect(contents.openHandler!({ url: "file:///etc/passwd" })).toEqual({ action: "deny" });
    expect(contents.openHandler!({ url: "smb://host/share" })).toEqual({ action: "deny" });
    expect(contents.openHandler!({ url: `${APP_ORIGIN}/index.html` })).toEqual({ action: "deny" });
    expect(electron.openExternal.mock.calls.map((c) => c[0])).toEqual(["https://github.com/chopin/plans", "http://example.com/"]);
  });

  it("refuses to attach a <webview>", () => {
    expect(guarded().fire("will-attach-webview", "")).toBe(true);
  });
});
