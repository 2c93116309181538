// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { chooseTheme, followTheme, readThemeChoice, resolveTheme, THEME_STORAGE_KEY } from "./theme.js";

/** A system whose light/dark preference the test sets, and who listens to it. */
function system(dark: boolean) {
  const listeners = new Set<() => void>();
  const media = {
    matches: dark,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  window.matchMedia = (() => media) as unknown as typeof window.matchMedia;
  return {
    set(value: boolean) {
      media.matches = value;
      for (const listener of listeners) listener();
    },
    listeners,
  };
}

const theme = () => document.documentElement.dataset.theme;

afterEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe("the theme", () => {
  it("resolves the choice against the system", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
  });

  it("reads anything but a choice as 'system'", () => {
    expect(readThemeChoice()).toBe("system");
    localStorage.setItem(THEME_STORAGE_KEY, "neon");
    expect(readThemeChoice()).toBe("system");
    localStorage.setItem(THEME_STORAGE_KEY, "dark");
    expect(readThemeChoice()).toBe("dark");
  });

  it("follows the system while the choice is 'system', and the person's choice at once in this and other windows", () => {
    const os = system(false);
    const stop = followTheme();
    expect(theme()).toBe("light");
    os.set(true);
    expect(theme()).toBe("dark");

    chooseTheme("light");
    expect(theme()).toBe("light");
    os.set(true);
    expect(theme()).toBe("light");

    // Another window chose: the storage event brings it here.
    localStorage.setItem(THEME_STORAGE_KEY, "dark");
    window.dispatchEvent(new StorageEvent("storage", { key: THEME_STORAGE_KEY }));
    expect(theme()).toBe("dark");

    stop();
    expect(os.listeners.size).toBe(0);
  });
});
