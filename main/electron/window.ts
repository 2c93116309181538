/**
 * The one app window and its guard rails. What must stay true: the page runs with context isolation, the Chromium
 * sandbox and no Node; it never navigates away from the app's origin; it never opens another window (web links go
 * to the OS browser, nothing else leaves); it never embeds a <webview>.
 */
import { BrowserWindow, shell, type WebContents, type WebPreferences } from "electron";
import { isExternalWebUrl, isTrustedUrl } from "./app-origin.js";

export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: true,
  };
}

export type GuardedContents = Pick<WebContents, "on" | "setWindowOpenHandler">;

/** Installs the navigation, window.open and <webview> refusals on a window's contents. */
export function guardWebContents(contents: GuardedContents, origins: readonly string[]): void {
  const refuseForeign = (event: { preventDefault(): void }, url: string) => {
    if (!isTrustedUrl(url, origins)) event.preventDefault();
  };
  contents.on("will-navigate", (event) => refuseForeign(event, event.url));
  contents.on("will-redirect", (event) => refuseForeign(event, event.url));
  contents.on("will-attach-webview", (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url)) void shell.openExternal(url).catch(() => undefined);
    return { action: "deny" };
  });
}

export interface MainWindowOptions {
  preloadPath: string;
  /** What to load: app://chopin/index.html, or the dev server's URL under `electron-vite dev`. */
  url: string;
  origins: readonly string[];
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 840,
    minWidth: 640,
    minHeight: 480,
    show: false,
    title: "Chopin",
    webPreferences: secureWebPreferences(options.preloadPath),
  });
  guardWebContents(win.webContents, options.origins);
  win.once("ready-to-show", () => win.show());
  void win.loadURL(options.url);
  return win;
}
