import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { waitFor } from "../../shared/wait-for.js";

/** A recording stand-in for the parts of Electron main.ts wires together; the order of calls is the point. */
const h = vi.hoisted(() => {
  const state = {
    log: [] as string[],
    paths: new Map<string, string>(),
    lock: true,
    appListeners: new Map<string, ((...a: unknown[]) => void)[]>(),
    windows: [] as { url: string; prefs: Record<string, unknown>; listeners: Map<string, (() => void)[]> }[],
    coreOptions: [] as unknown[],
    closes: 0,
    quits: 0,
    readyResolve: null as null | (() => void),
  };
  return state;
});

vi.mock("electron", async () => {
  const { EventEmitter } = await import("node:events");
  const app = {
    setPath: (name: string, path: string) => (h.log.push(`setPath:${name}`), h.paths.set(name, path)),
    getPath: (name: string) => h.paths.get(name) ?? `/default/${name}`,
    enableSandbox: () => h.log.push("enableSandbox"),
    requestSingleInstanceLock: () => (h.log.push("lock"), h.lock),
    whenReady: () => new Promise<void>((r) => (h.readyResolve = () => (h.log.push("ready"), r()))),
    isPackaged: true,
    quit: () => {
      h.quits++;
      let prevented = false;
      for (const fn of h.appListeners.get("will-quit") ?? []) fn({ preventDefault: () => (prevented = true) });
      if (!prevented) h.log.push("quit");
    },
    exit: () => h.log.push("exit"),
    on: (event: string, fn: (...a: unknown[]) => void) => h.appListeners.set(event, [...(h.appListeners.get(event) ?? []), fn]),
  };
  class BrowserWindow extends EventEmitter {
    webContents = { on: () => {}, setWindowOpenHandler: () => {}, send: () => {}, isDestroyed: () => false };
    constructor(options: { webPreferences: Record<string, unknown> }) {
      super();
      h.windows.push({ url: "", prefs: options.webPreferences, listeners: new Map() });
    }
    loadURL(url: string) {
      h.windows[h.windows.length - 1].url = url;
      return Promise.resolve();
    }
    isDestroyed() {
      return false;
    }
  }
  const session = {
    defaultSession: {
      setPermissionRequestHandler: () => h.log.push("permissions"),
      setPermissionCheckHandler: () => {},
      webRequest: { onHeadersReceived: () => h.log.push("csp") },
    },
  };
  return {
    app,
    BrowserWindow,
    session,
    dialog: { showErrorBox: (title: string) => h.log.push(`error:${title}`) },
    ipcMain: { handle: (channel: string) => h.log.push(`handle:${channel}`), removeHandler: () => {} },
    MessageChannelMain: class {},
    protocol: {
      registerSchemesAsPrivileged: () => h.log.push("registerScheme"),
      handle: () => h.log.push("serveScheme"),
    },
    shell: { openExternal: async () => {} },
    safeStorage: { isEncryptionAvailable: () => true, getSelectedStorageBackend: () => "gnome_libsecret", encryptString: () => Buffer.alloc(0), decryptString: () => "" },
  };
});

vi.mock("../core/app-core.js", () => ({
  createAppCore: async (options: unknown) => {
    h.log.push("createAppCore");
    h.coreOptions.push(options);
    return {
      api: {},
      events: { on: () => () => {} },
      attachRendererAdapter: () => {},
      startupNotes: [],
      close: async () => {
        h.closes++;
        h.log.push("core.close");
      },
    };
  },
}));

const argv = process.argv;
beforeEach(() => {
  vi.resetModules();
  Object.assign(h, { log: [], lock: true, windows: [], coreOptions: [], closes: 0, quits: 0, readyResolve: null });
  h.paths.clear();
  h.appListeners.clear();
});
afterEach(() => {
  process.argv = argv;
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.removeAllListeners(signal);
});

describe("main.ts", () => {
  it("sets paths, the sandbox and the scheme before ready, then creates the core before the window", async () => {
    process.argv = ["electron", ".", "--data-dir", "/tmp/chopin-e2e"];
    await import("./main.js");
    expect(h.log).toEqual(["setPath:userData", "setPath:sessionData", "enableSandbox", "registerScheme", "lock"]);
    expect(h.paths.get("userData")).toBe("/tmp/chopin-e2e");
    expect(h.paths.get("sessionData")).toBe("/tmp/chopin-e2e/chromium");
    h.readyResolve!();
    await waitFor(() => h.windows.length === 1, "the window");
    expect(h.log.indexOf("csp")).toBeLessThan(h.log.indexOf("createAppCore"));
    expect(h.log.indexOf("serveScheme")).toBeLessThan(h.log.indexOf("createAppCore"));
    expect(h.coreOptions).toEqual([
      {
        dataDir: "/tmp/chopin-e2e",
        githubClientId: null,
        githubApiUrl: "https://api.github.com",
        githubWebUrl: "https://github.com",
        planner: { off: false },
        enableAgentChat: false,
        osCipher: expect.objectContaining({ isEncryptionAvailable: expect.any(Function) }),
        onStorageFault: expect.any(Function),
      },
    ]);
    expect(h.windows[0].url).toBe("app://chopin/index.html");
    expect(h.windows[0].prefs).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(String(h.windows[0].prefs.preload)).toMatch(/preload[\\/]index\.cjs$/);
  });

  it("takes --enable-agent-chat, AGENT=off, the Planner's provider and CHOPIN_GITHUB_TOKEN from the environment, and leaves the token out of it", async () => {
    process.argv = ["electron", ".", "--data-dir", "/tmp/chopin-e2e", "--enable-agent-chat"];
    const saved = { ...process.env };
    Object.assign(process.env, { AGENT: "off", CHOPIN_GITHUB_TOKEN: "github_pat_x", CHOPIN_PLANNER_PROVIDER: "openai", CHOPIN_PLANNER_BASE_URL: "http://127.0.0.1:9/v1", CHOPIN_PLANNER_MODEL: "m", CHOPIN_PLANNER_API_KEY: "sk-1" });
    try {
      await import("./main.js");
      h.readyResolve!();
      await waitFor(() => h.windows.length === 1, "the window");
      expect(h.coreOptions[0]).toMatchObject({ githubToken: "github_pat_x", enableAgentChat: true, planner: { off: true, provider: { type: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKey: "sk-1" } } });
      expect(process.env.CHOPIN_GITHUB_TOKEN).toBeUndefined();
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });

  it("waits for core.close() before letting the app quit", async () => {
    process.argv = ["electron", "."];
    await import("./main.js");
    h.readyResolve!();
    await waitFor(() => h.windows.length === 1, "the window");
    (await import("electron")).app.quit();
    expect(h.log).not.toContain("quit");
    await waitFor(() => h.log.includes("quit"), "the replayed quit");
    expect(h.log.indexOf("core.close")).toBeLessThan(h.log.indexOf("quit"));
    expect(h.closes).toBe(1);
  });

  it("quits at once, without a core or window, when another instance holds the lock", async () => {
    h.lock = false;
    process.argv = ["electron", "."];
    await import("./main.js");
    expect(h.log).toContain("quit");
    expect(h.readyResolve).toBeNull();
    expect(h.coreOptions).toEqual([]);
  });
});
