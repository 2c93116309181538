/**
 * Following a link from the editor: Mod+click (Ctrl, or Cmd on macOS) on a Markdown link, an <autolink> or a bare
 * URL, or Mod+Enter with the caret in it, opens it outside the app (a new browser tab in host mode; Electron's window-open handler hands web URLs to the
 * system browser). A plain click only moves the caret, as in every editor, so writing around a link is never
 * interrupted.
 * What must stay true: only http(s) addresses are opened (never javascript:, file:, mailto: or app-internal ones),
 * and only the URL of the link under the pointer, read from the Markdown syntax tree, never from the rendered text.
 */
import { syntaxTree } from "@codemirror/language";
import type { EditorState, Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";

/** Web addresses only: what Electron's window-open handler hands to the system browser (main/electron/window.ts). */
const OPENABLE = new Set(["http:", "https:"]);

/** The openable address of the link at `pos` (inside its text, brackets or URL), or null. */
export function linkAt(state: EditorState, pos: number): string | null {
  for (const side of [1, -1] as const) {
    for (let node: ReturnType<ReturnType<typeof syntaxTree>["resolveInner"]> | null = syntaxTree(state).resolveInner(pos, side); node; node = node.parent) {
      if (node.name === "URL" && node.parent?.name !== "Link" && node.parent?.name !== "Autolink") return openable(state.sliceDoc(node.from, node.to));
      if (node.name === "Link" || node.name === "Autolink") {
        const url = node.getChild("URL");
        return url ? openable(state.sliceDoc(url.from, url.to)) : null;
      }
    }
  }
  return null;
}

function openable(text: string): string | null {
  try {
    const url = new URL(text.trim());
    return OPENABLE.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** Mod+click opens the link under the pointer with `open` (window.open in a new tab by default). */
export function openLinksOnModClick(open: (url: string) => void = defaultOpen): Extension {
  return EditorView.domEventHandlers({
    mousedown(event, view) {
      if (event.button !== 0 || !(event.ctrlKey || event.metaKey)) return false;
      const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
      const url = pos === null ? null : linkAt(view.state, pos);
      if (!url) return false;
      event.preventDefault();
      open(url);
      return true;
    },
  });
}

/** Mod+Enter with the caret in a link opens it: the keyboard's way to what Mod+click does. False elsewhere. */
export function openLinkAtCaret(open: (url: string) => void = defaultOpen): (view: EditorView) => boolean {
  return (view) => {
    const { main } = view.state.selection;
    if (!main.empty) return false;
    const url = linkAt(view.state, main.head);
    if (!url) return false;
    open(url);
    return true;
  };
}

function defaultOpen(url: string): void {
  window.open(url, "_blank", "noopener,noreferrer");
}
