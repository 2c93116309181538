/**
 * The editor's find and replace panel (Mod+F), in the app's own words and look: named fields and buttons, the
 * options as labelled checkboxes, and where you are among the matches ("3 of 12", said in a live region). CodeMirror's
 * default panel had lowercase browser-styled buttons ("next", "all", "close") and no count (UX audit).
 * What must stay true: the query lives in CodeMirror's search state (setSearchQuery), so the keymap's commands
 * (Mod+G, Shift+Mod+G, Escape) and this panel always agree; counting stops at MAX_FIND_MATCHES_COUNTED so a huge
 * document never stalls typing while the panel is open; a read-only editor offers no replace.
 */
import {
  closeSearchPanel,
  findNext,
  findPrevious,
  getSearchQuery,
  replaceAll,
  replaceNext,
  SearchQuery,
  selectMatches,
  setSearchQuery,
} from "@codemirror/search";
import type { EditorState } from "@codemirror/state";
import type { EditorView, Panel, ViewUpdate } from "@codemirror/view";
import { MAX_FIND_MATCHES_COUNTED } from "../limits.js";

/** Where the selection is among the query's matches, counting at most MAX_FIND_MATCHES_COUNTED of them. */
export function matchPosition(state: EditorState, query: SearchQuery): { total: number; capped: boolean; current: number | null } {
  if (!query.valid) return { total: 0, capped: false, current: null };
  const { from, to } = state.selection.main;
  const cursor = query.getCursor(state);
  let total = 0;
  let current: number | null = null;
  for (let next = cursor.next(); !next.done; next = cursor.next()) {
    total++;
    if (next.value.from === from && next.value.to === to) current = total;
    if (total >= MAX_FIND_MATCHES_COUNTED) return { total, capped: true, current };
  }
  return { total, capped: false, current };
}

/** "3 of 12", "12 matches", "No matches", or nothing for an empty query. */
export function matchWords(query: SearchQuery, position: ReturnType<typeof matchPosition>): string {
  if (!query.search) return "";
  if (!query.valid) return "Not a valid pattern";
  if (position.total === 0) return "No matches";
  const total = `${position.total}${position.capped ? "+" : ""}`;
  if (position.current !== null) return `${position.current} of ${total}`;
  return `${total} ${position.total === 1 && !position.capped ? "match" : "matches"}`;
}

function button(label: string, name: string, run: () => void): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "button button-small";
  b.textContent = label;
  b.setAttribute("aria-label", name);
  b.addEventListener("click", run);
  return b;
}

function field(label: string, value: string, main: boolean): HTMLInputElement {
  const input = document.createElement("input");
  input.className = "find-field";
  input.value = value;
  input.placeholder = label;
  input.setAttribute("aria-label", label);
  input.spellcheck = false;
  if (main) input.setAttribute("main-field", "true");
  return input;
}

function toggle(label: string, checked: boolean, onChange: () => void): { box: HTMLInputElement; element: HTMLLabelElement } {
  const element = document.createElement("label");
  element.className = "find-toggle";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.checked = checked;
  box.addEventListener("change", onChange);
  element.append(box, document.createTextNode(label));
  return { box, element };
}

export function createFindPanel(view: EditorView): Panel {
  let query = getSearchQuery(view.state);
  const dom = document.createElement("div");
  dom.className = "find-panel";
  dom.setAttribute("role", "search");
  dom.setAttribute("aria-label", "Find and replace");

  const find = field("Find", query.search, true);
  const replace = field("Replace with", query.replace, false);
  const commit = () => {
    const next = new SearchQuery({
      search: find.value,
      replace: replace.value,
      caseSensitive: matchCase.box.checked,
      regexp: regexp.box.checked,
      wholeWord: wholeWord.box.checked,
    });
    if (next.eq(query)) return;
    query = next;
    view.dispatch({ effects: setSearchQuery.of(next) });
  };
  const matchCase = toggle("Match case", query.caseSensitive, commit);
  const regexp = toggle("Regular expression", query.regexp, commit);
  const wholeWord = toggle("Whole word", query.wholeWord, commit);
  const count = document.createElement("span");
  count.className = "find-count";
  count.setAttribute("role", "status");
  count.setAttribute("aria-live", "polite");

  find.addEventListener("input", commit);
  replace.addEventListener("input", commit);
  const close = () => {
    closeSearchPanel(view);
    view.focus();
  };
  dom.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === "Enter" && e.target === find) {
      e.preventDefault();
      (e.shiftKey ? findPrevious : findNext)(view);
    } else if (e.key === "Enter" && e.target === replace) {
      e.preventDefault();
      replaceNext(view);
    }
  });

  const findRow = document.createElement("div");
  findRow.className = "find-row";
  findRow.append(
    find,
    count,
    button("Previous", "Previous match", () => findPrevious(view)),
    button("Next", "Next match", () => findNext(view)),
    button("Select all", "Select all matches", () => selectMatches(view)),
    matchCase.element,
    regexp.element,
    wholeWord.element,
  );
  const closeButton = button("×", "Close find and replace", close);
  closeButton.classList.add("find-close");
  const replaceRow = document.createElement("div");
  replaceRow.className = "find-row";
  replaceRow.append(
    replace,
    button("Replace", "Replace this match", () => replaceNext(view)),
    button("Replace all", "Replace all matches", () => replaceAll(view)),
  );
  dom.append(closeButton, findRow, replaceRow);

  const showCount = (state: EditorState) => {
    count.textContent = matchWords(query, matchPosition(state, query));
  };
  const showReplace = (state: EditorState) => {
    replaceRow.hidden = state.readOnly;
  };
  showCount(view.state);
  showReplace(view.state);

  return {
    dom,
    top: true,
    // Opened by Mod+F: the person types the query at once (CodeMirror focuses the main field only when already open).
    mount() {
      find.focus();
      find.select();
    },
    update(update: ViewUpdate) {
      for (const tr of update.transactions) {
        for (const effect of tr.effects) {
          // A query set from outside (Mod+F with a selection, the keymap): the fields follow it.
          if (effect.is(setSearchQuery) && !effect.value.eq(query)) {
            query = effect.value;
            find.value = query.search;
            replace.value = query.replace;
            matchCase.box.checked = query.caseSensitive;
            regexp.box.checked = query.regexp;
            wholeWord.box.checked = query.wholeWord;
          }
        }
      }
      if (update.docChanged || update.selectionSet || update.transactions.some((tr) => tr.effects.some((e) => e.is(setSearchQuery)))) {
        showCount(update.state);
      }
      if (update.startState.readOnly !== update.state.readOnly) showReplace(update.state);
    },
  };
}
