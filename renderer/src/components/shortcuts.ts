/**
 * Window-wide keyboard shortcuts. "Mod" is Ctrl, or Cmd on macOS; either is accepted so a person never has to think
 * about which. In a browser tab, Ctrl+N may be taken by the browser itself; the palette and the button still work.
 * What must stay true: Mod+F (without Shift) is never taken here, so it stays the editor's own find.
 */
export type ShortcutAction = "new-document" | "palette" | "history" | "search" | "escape";

export function matchShortcut(e: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "shiftKey" | "altKey">): ShortcutAction | null {
  if (e.key === "Escape") return "escape";
  const mod = e.ctrlKey || e.metaKey;
  if (!mod || e.altKey) return null;
  const key = e.key.toLowerCase();
  if (e.shiftKey && key === "h") return "history";
  if (e.shiftKey && key === "f") return "search";
  if (e.shiftKey) return null;
  if (key === "n") return "new-document";
  if (key === "k" || key === "p") return "palette";
  return null;
}

/** The platform string the window runs on (navigator's; empty where there is none). */
function currentPlatform(): string {
  const nav = (globalThis as { navigator?: Navigator & { userAgentData?: { platform?: string } } }).navigator;
  return nav?.userAgentData?.platform || nav?.platform || "";
}

/** What the Mod key is called where the person is: Cmd on macOS, Ctrl elsewhere (both work everywhere). */
export function modKeyName(platform: string = currentPlatform()): "Cmd" | "Ctrl" {
  return /mac|iphone|ipad/i.test(platform) ? "Cmd" : "Ctrl";
}

/** A shortcut as hints and tooltips show it: `keys` after the Mod key, e.g. "Shift+H" gives "Ctrl+Shift+H". */
export function shortcutHint(keys: string, platform?: string): string {
  return `${modKeyName(platform)}+${keys}`;
}
