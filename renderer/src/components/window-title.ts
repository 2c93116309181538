/**
 * The window's title names the open plan ("Launch plan — Chopin"), so the taskbar, Alt-Tab and a browser tab tell
 * windows apart; with nothing open it is the app's name. The title is the plan's, as the header shows it (an empty one
 * reads "Untitled").
 */
import { useEffect } from "react";

export const APP_TITLE = "Chopin";

export function windowTitle(planTitle: string | null): string {
  if (planTitle === null) return APP_TITLE;
  return `${planTitle.trim() || "Untitled"} — ${APP_TITLE}`;
}

/**
 * Keeps document.title in step with the open plan's title (null: none open; undefined: the page shown sets it itself,
 * as the chat with an agent does).
 */
export function useWindowTitle(planTitle: string | null | undefined): void {
  useEffect(() => {
    if (planTitle !== undefined) document.title = windowTitle(planTitle);
  }, [planTitle]);
}
