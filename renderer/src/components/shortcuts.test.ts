import { describe, expect, it } from "vitest";
import { matchShortcut, modKeyName, shortcutHint } from "./shortcuts.js";

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe("matchShortcut", () => {
  it("maps Mod+N, Mod+K, Mod+P, Mod+Shift+H and Escape with Ctrl or Cmd", () => {
    expect(matchShortcut(key("n", { ctrlKey: true }))).toBe("new-document");
    expect(matchShortcut(key("k", { metaKey: true }))).toBe("palette");
    expect(matchShortcut(key("p", { ctrlKey: true }))).toBe("palette");
    expect(matchShortcut(key("H", { ctrlKey: true, shiftKey: true }))).toBe("history");
    expect(matchShortcut(key("F", { ctrlKey: true, shiftKey: true }))).toBe("search");
    expect(matchShortcut(key("f", { metaKey: true, shiftKey: true }))).toBe("search");
    expect(matchShortcut(key("Escape"))).toBe("escape");
  });

  it("leaves other keys to the editor", () => {
    expect(matchShortcut(key("n"))).toBeNull();
    expect(matchShortcut(key("z", { ctrlKey: true }))).toBeNull();
    expect(matchShortcut(key("N", { ctrlKey: true, shiftKey: true }))).toBeNull();
    expect(matchShortcut(key("k", { ctrlKey: true, altKey: true }))).toBeNull();
    // Mod+F stays the editor's find.
    expect(matchShortcut(key("f", { ctrlKey: true }))).toBeNull();
    expect(matchShortcut(key("f", { metaKey: true }))).toBeNull();
  });
});

describe("shortcut hints", () => {
  it("name the Mod key Cmd on macOS and Ctrl elsewhere", () => {
    expect(modKeyName("MacIntel")).toBe("Cmd");
    expect(modKeyName("macOS")).toBe("Cmd");
    expect(modKeyName("Win32")).toBe("Ctrl");
    expect(modKeyName("Linux x86_64")).toBe("Ctrl");
    expect(modKeyName("")).toBe("Ctrl");
    expect(shortcutHint("Shift+H", "MacIntel")).toBe("Cmd+Shift+H");
    expect(shortcutHint("N", "Linux x86_64")).toBe("Ctrl+N");
  });
});
