/**
 * The elements inside `root` that Tab reaches, in document order: enabled form controls, links and buttons, and
 * anything with a non-negative tabindex, leaving out what is hidden (the `hidden` attribute, or, where the browser
 * can tell, not rendered). Used by the dialogs' focus trap.
 */
const CANDIDATES = 'a[href], button, input, select, textarea, [tabindex], [contenteditable="true"]';

export function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(CANDIDATES)].filter((el) => {
    if (el.tabIndex < 0 || (el as HTMLButtonElement).disabled) return false;
    if (el instanceof HTMLInputElement && el.type === "hidden") return false;
    if (el.closest("[hidden], [inert]")) return false;
    // Not rendered (display: none, in a collapsed <details>); jsdom has no layout and says nothing here.
    return typeof el.checkVisibility !== "function" || el.checkVisibility();
  });
}
