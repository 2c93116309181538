import { ensureSyntaxTree } from "@codemirror/language";
import { markdown, markdownLanguage } from "@codemirror/lang-markdown";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import type { EditorView } from "@codemirror/view";
import { linkAt, openLinkAtCaret } from "./link-open.js";

function stateOf(doc: string): EditorState {
  const state = EditorState.create({ doc, extensions: [markdown({ base: markdownLanguage })] });
  ensureSyntaxTree(state, doc.length, 5000);
  return state;
}

describe("linkAt", () => {
  const doc = "See [the PR](https://github.com/a/b/pull/1) and <https://x.y/z>, https://bare.example/q, [mail](mailto:a@b.c).";
  const state = stateOf(doc);
  const at = (text: string) => doc.indexOf(text) + 1;

  it("finds a Markdown link's address from its text, brackets or URL", () => {
    for (const where of ["the PR", "[the", "](", "github.com"]) expect(linkAt(state, at(where))).toBe("https://github.com/a/b/pull/1");
  });

  it("finds autolinks and bare URLs", () => {
    expect(linkAt(state, at("x.y/z"))).toBe("https://x.y/z");
    expect(linkAt(state, at("bare.example"))).toBe("https://bare.example/q");
  });

  it("is null away from links and for addresses it must not open", () => {
    expect(linkAt(state, at("See"))).toBeNull();
    expect(linkAt(state, at("mail]"))).toBeNull();
    const risky = stateOf("[x](javascript:alert(1)) [y](file:///etc/passwd) [z](/relative)");
    expect(linkAt(risky, 2)).toBeNull();
    expect(linkAt(risky, risky.doc.toString().indexOf("[y") + 1)).toBeNull();
    expect(linkAt(risky, risky.doc.toString().indexOf("[z") + 1)).toBeNull();
  });
});

describe("Mod+Enter on a link", () => {
  it("opens the link at the caret, and does nothing (for the next command) elsewhere or with a selection", () => {
    const doc = "See [the spec](https://example.com/spec) here.";
    const opened: string[] = [];
    const run = (anchor: number, head = anchor) =>
      openLinkAtCaret((url) => opened.push(url))({ state: stateOf(doc).update({ selection: { anchor, head } }).state } as EditorView);
    expect(run(7)).toBe(true);
    expect(opened).toEqual(["https://example.com/spec"]);
    expect(run(1)).toBe(false);
    expect(run(6, 9)).toBe(false);
    expect(opened).toHaveLength(1);
  });
});
