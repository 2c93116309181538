/**
 * Light or dark: the system's choice unless the person picked one (Settings → Appearance). The choice is this device's
 * (kept in the origin's localStorage, so every window of the app follows it at once through the storage event); the
 * page carries the resolved theme as `data-theme` on <html>, which styles.css reads.
 *
 * What must stay true: "system" follows the system as it changes, without a reload; a stored value that is not one of
 * the choices reads as "system"; a storage that refuses writes (private mode, a full disk) leaves the theme applied
 * for this window all the same.
 */
export const THEME_CHOICES = ["system", "light", "dark"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
export type Theme = "light" | "dark";

/** Where the choice is kept in localStorage. */
export const THEME_STORAGE_KEY = "chopin.theme";

const DARK_QUERY = "(prefers-color-scheme: dark)";

export function readThemeChoice(storage: Pick<Storage, "getItem"> | null = safeStorage()): ThemeChoice {
  const stored = storage?.getItem(THEME_STORAGE_KEY) ?? null;
  return (THEME_CHOICES as readonly string[]).includes(stored ?? "") ? (stored as ThemeChoice) : "system";
}

export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  if (choice === "system") return systemDark ? "dark" : "light";
  return choice;
}

function safeStorage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * Applies the stored choice to the page now and keeps it applied as the system's theme or the choice changes (in this
 * window or another); returns the way to stop.
 */
export function followTheme(root: HTMLElement = document.documentElement, win: Window = window): () => void {
  const media = typeof win.matchMedia === "function" ? win.matchMedia(DARK_QUERY) : null;
  const apply = () => {
    root.dataset.theme = resolveTheme(readThemeChoice(), media?.matches ?? false);
  };
  apply();
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === THEME_STORAGE_KEY) apply();
  };
  media?.addEventListener("change", apply);
  win.addEventListener("storage", onStorage);
  win.addEventListener(THEME_CHANGED_EVENT, apply);
  return () => {
    media?.removeEventListener("change", apply);
    win.removeEventListener("storage", onStorage);
    win.removeEventListener(THEME_CHANGED_EVENT, apply);
  };
}

/** Said on the window when this window changed the choice (the storage event reaches only the other windows). */
const THEME_CHANGED_EVENT = "chopin-theme-changed";

/** Records the person's choice and applies it in every window. */
export function chooseTheme(choice: ThemeChoice, win: Window = window): void {
  try {
    safeStorage()?.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Not kept (a full or refusing storage): this window still shows it until it closes.
    document.documentElement.dataset.theme = resolveTheme(choice, win.matchMedia?.(DARK_QUERY).matches ?? false);
    return;
  }
  win.dispatchEvent(new Event(THEME_CHANGED_EVENT));
}
