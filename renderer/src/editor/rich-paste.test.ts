// @vitest-environment jsdom
/** A paste with HTML on the clipboard goes in as Markdown, as one paste transaction; code and read-only bodies are left alone. */
import { afterEach, describe, expect, it } from "vitest";
import { EditorState, type Transaction } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { markdown } from "@codemirror/lang-markdown";
import { ensureSyntaxTree } from "@codemirror/language";
import "../test/jsdom-layout.js";
import { READ_ONLY } from "./edit-lock.js";
import { richPaste } from "./rich-paste.js";

const views: EditorView[] = [];
afterEach(() => {
  while (views.length) views.pop()!.destroy();
});

function editor(doc: string, cursor: number, extra: ReturnType<typeof richPaste>[] = []) {
  const transactions: Transaction[] = [];
  const view = new EditorView({
    parent: document.body,
    state: EditorState.create({ doc, selection: { anchor: cursor }, extensions: [markdown(), richPaste(), ...extra] }),
    dispatchTransactions: (trs, v) => {
      transactions.push(...trs);
      v.update(trs);
    },
  });
  ensureSyntaxTree(view.state, view.state.doc.length, 5_000);
  views.push(view);
  return { view, transactions };
}

/** A paste event as the browser sends it, with `html` and its plain text on the clipboard. */
function paste(view: EditorView, html: string, text: string): Event {
  const event = new Event("paste", { bubbles: true, cancelable: true });
  const data: Record<string, string> = { "text/html": html, "text/plain": text };
  Object.defineProperty(event, "clipboardData", { value: { getData: (type: string) => data[type] ?? "", types: Object.keys(data) } });
  view.contentDOM.dispatchEvent(event);
  return event;
}

describe("rich paste", () => {
  it("pastes the Markdown of the HTML over the selection, as one input.paste transaction", () => {
    const { view, transactions } = editor("Notes: \n", 7);
    const event = paste(view, '<a href="https://example.com/spec">the spec</a>', "the spec");
    expect(event.defaultPrevented).toBe(true);
    expect(view.state.doc.toString()).toBe("Notes: [the spec](https://example.com/spec)\n");
    const changes = transactions.filter((tr) => tr.docChanged);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.isUserEvent("input.paste")).toBe(true);
  });

  it("leaves a paste into code, and a paste of plain HTML, to the plain-text paste", () => {
    // CodeMirror's own paste handler then inserts the plain text.
    const { view } = editor("```\ncode\n```\n", 6);
    paste(view, "<b>bold</b>", "bold");
    expect(view.state.doc.toString()).toBe("```\ncoboldde\n```\n");
    const plain = editor("x", 1).view;
    paste(plain, '<span style="color:red">just *text*</span>', "just *text*");
    expect(plain.state.doc.toString()).toBe("xjust *text*");
  });

  it("pastes nothing into a read-only body", () => {
    const { view } = editor("locked", 6, [READ_ONLY]);
    paste(view, "<b>bold</b>", "bold");
    expect(view.state.doc.toString()).toBe("locked");
  });
});
