/**
 * The Electron entry (built to out/main/index.js). It only wires things: every rule lives in a module beside it.
 * Order matters and must stay: name/paths, sandbox and the app:// scheme are set BEFORE `ready`; the single-instance
 * lock is taken after the data dir is known (Electron keys the lock by userData, so two --data-dir apps can coexist);
 * the core is created before the window so the first IPC call finds it; quitting waits for core.close().
 */
import { app, dialog, ipcMain, MessageChannelMain, safeStorage, session, type BrowserWindow } from "electron";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAppCore } from "../core/app-core.js";
import { describeCoreFailure } from "../store/startup-failure.js";
import { defaultDataDir } from "../store/app-data-dir.js";
import type { AppCore } from "../core/types.js";
import { GITHUB_TOKEN_ENV, parseGitHubConfig, readGitHubToken } from "../github/github-config.js";
import { parsePlannerArgs } from "../host/planner-args.js";
import { parseAgentChatArg } from "../host/agent-chat-args.js";
import { APP_CSP, APP_ENTRY_URL, devCsp, originOf, trustedOrigins } from "./app-origin.js";
import { registerAppScheme, serveAppProtocol } from "./app-protocol.js";
import { parseElectronArgs } from "./cli-args.js";
import { registerIpc } from "./ipc.js";
import { createSafeStorageCipher } from "./safe-storage-cipher.js";
import { holdQuitUntil } from "./quit.js";
import { ReplicaPortBroker } from "./replica-port.js";
import { applySessionPolicy } from "./session-policy.js";
import { createMainWindow } from "./window.js";

const here = dirname(fileURLToPath(import.meta.url));
const PRELOAD_PATH = join(here, "../preload/index.cjs");
const RENDERER_DIR = join(here, "../renderer");

// userData is host mode's defaultDataDir() unless --data-dir says otherwise, so both shells find one installation's
// data (Electron would otherwise derive it from the package name).
const args = parseElectronArgs(process.argv.slice(1));
app.setPath("userData", args.dataDir ?? defaultDataDir());
// Chromium's caches live in a subfolder, apart from the core's files.
app.setPath("sessionData", join(app.getPath("userData"), "chromium"));
app.enableSandbox();
registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start().catch((error: unknown) => {
    dialog.showErrorBox("Chopin could not start", describeCoreFailure(error, app.getPath("userData")));
    app.exit(1);
  });
}

async function start(): Promise<void> {
  await app.whenReady();
  // The dev server is trusted only in an unpackaged run under `electron-vite dev`.
  const devUrl = !app.isPackaged && process.env.ELECTRON_RENDERER_URL ? process.env.ELECTRON_RENDERER_URL : null;
  const devOrigin = devUrl ? originOf(devUrl) : null;
  const origins = trustedOrigins(devUrl);
  applySessionPolicy(session.defaultSession, { origins, csp: devOrigin ? devCsp(devOrigin) : APP_CSP });
  serveAppProtocol(RENDERER_DIR);

  // Checked after ready, so a bad GitHub option is shown in the error dialog rather than crashing silently.
  const github = parseGitHubConfig(args.github);
  // The environment's Planner settings and supplied GitHub token, as host mode takes them (a bad value is shown in the
  // error dialog); the token is taken out of the environment so nothing this process starts inherits it.
  const planner = parsePlannerArgs(new Map(), process.env);
  const enableAgentChat = parseAgentChatArg(args.enableAgentChat, process.env);
  const githubToken = readGitHubToken(process.env);
  delete process.env[GITHUB_TOKEN_ENV];
  const core: AppCore = await createAppCore({
    dataDir: app.getPath("userData"),
    githubClientId: github.clientId,
    githubApiUrl: github.apiBaseUrl,
    githubWebUrl: github.webBaseUrl,
    ...(githubToken !== null ? { githubToken } : {}),
    planner,
    enableAgentChat,
    // safeStorage only works after ready; the core asks it lazily, when a sign-in is saved or restored.
    osCipher: createSafeStorageCipher(safeStorage),
    // The window says "Not saved yet" with the same sentence; the log keeps when it started.
    onStorageFault: (sentence) => console.warn(`chopin: ${sentence}`),
  });
  for (const note of core.startupNotes) console.warn(`chopin: ${note}`);
  let win: BrowserWindow | null = null;
  const broker = new ReplicaPortBroker(
    () => new MessageChannelMain(),
    (adapter) => core.attachRendererAdapter(adapter),
    (reason) => console.warn("chopin: refused a replica message from the window:", reason),
  );
  const disposeIpc = registerIpc({
    ipcMain,
    core,
    contents: () => (win && !win.isDestroyed() ? win.webContents : null),
    origins,
    openReplicaPort: () => broker.open(),
  });
  holdQuitUntil(app, async () => {
    disposeIpc();
    broker.close();
    await core.close();
  });

  const openWindow = () => {
    const created = createMainWindow({ preloadPath: PRELOAD_PATH, url: devUrl ?? APP_ENTRY_URL, origins });
    created.on("closed", () => {
      broker.close();
      if (win === created) win = null;
    });
    win = created;
  };
  openWindow();

  app.on("second-instance", () => {
    if (!win) return openWindow();
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on("activate", () => {
    if (!win) openWindow();
  });
  app.on("window-all-closed", () => {
    if (process.platform !== "darwin") app.quit();
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => app.quit());
}
