// @vitest-environment jsdom
/** A rich paste keeps what Markdown can say: links above all (UX audit), then headings, lists, emphasis and code. */
import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "./html-to-markdown.js";

describe("htmlToMarkdown", () => {
  it("keeps a link's address, and a link that is its own address as an autolink", () => {
    expect(htmlToMarkdown('See <a href="https://example.com/a(b)">the spec</a> now')).toBe("See [the spec](https://example.com/a%28b%29) now");
    expect(htmlToMarkdown('<a href="https://example.com/">https://example.com/</a>')).toBe("<https://example.com/>");
    expect(htmlToMarkdown('<a href="mailto:ada@example.com">Ada</a>')).toBe("[Ada](mailto:ada@example.com)");
    expect(htmlToMarkdown('<a href="https://x.dev">[draft] notes</a>')).toBe("[\\[draft\\] notes](https://x.dev/)");
  });

  it("keeps only web and mail links: a script or data address stays text", () => {
    expect(htmlToMarkdown('<a href="javascript:alert(1)">click</a> and <b>bold</b>')).toBe("click and **bold**");
    expect(htmlToMarkdown('<a href="data:text/html,hi">data</a> <a href="/relative">rel</a> <em>x</em>')).toBe("data rel *x*");
  });

  it("keeps headings, paragraphs, lists (nested, numbered from their start) and quotes", () => {
    const html = `<h2>Launch  plan</h2><p>First <strong>step</strong>.</p>
      <ul><li>one</li><li>two<ul><li>two a</li></ul></li></ul>
      <ol start="3"><li>three</li><li>four</li></ol>
      <blockquote><p>quoted</p><p>twice</p></blockquote><hr>`;
    expect(htmlToMarkdown(html)).toBe(
      "## Launch plan\n\nFirst **step**.\n\n- one\n- two\n  - two a\n\n3. three\n4. four\n\n> quoted\n>\n> twice\n\n---",
    );
  });

  it("keeps code literally: a block fenced, a span in backticks", () => {
    expect(htmlToMarkdown("<p>Run <code>npm  test</code></p><pre><code>a *b*\n  c\n</code></pre>")).toBe("Run `npm test`\n\n```\na *b*\n  c\n```");
    expect(htmlToMarkdown("<code>a`b</code>")).toBe("``a`b``");
    expect(htmlToMarkdown("<code>`tick</code>")).toBe("`` `tick ``");
  });

  it("puts emphasis markers inside the spaces, and reads Google Docs' styled spans", () => {
    expect(htmlToMarkdown("a<b> bold </b>b")).toBe("a **bold** b");
    const docs = '<b style="font-weight:normal" id="docs-internal-guid-1"><span style="font-weight:700">Big</span> and <span style="font-style:italic">slanted</span></b>';
    expect(htmlToMarkdown(docs)).toBe("**Big** and *slanted*");
  });

  it("drops scripts and styles, turns line breaks into lines, and a table without a header row into a GFM table headed by its first row", () => {
    expect(htmlToMarkdown("<style>p{}</style><script>x()</script><p>one<br>two <i>it</i></p>")).toBe("one\ntwo *it*");
    expect(htmlToMarkdown("<table><tr><td>a</td><td><b>b</b></td></tr><tr><td>c</td><td>d</td></tr></table>")).toBe("| a | **b** |\n| --- | --- |\n| c | d |");
  });

  it("returns null for HTML with nothing Markdown keeps beyond its text, so the plain paste stands", () => {
    expect(htmlToMarkdown('<div><span style="color:red">plain</span> words</div>')).toBeNull();
    expect(htmlToMarkdown("")).toBeNull();
    expect(htmlToMarkdown("<b> </b>")).toBeNull();
  });
});

/**
 * Clipboards as the common sources write them (shapes taken from what GitHub, Google Docs, Notion-style editors and
 * chat apps put under text/html), and what a plan should get from each.
 */
describe("htmlToMarkdown on what real clipboards hold", () => {
  it("a rendered README's table keeps its header, alignment, and pipes inside cells", () => {
    const html = `<table><thead><tr><th align="left">Flag</th><th align="right">Default</th></tr></thead>
      <tbody><tr><td><code>--port</code></td><td>8080</td></tr><tr><td>a | b</td><td>multi<br>line</td></tr></tbody></table>`;
    expect(htmlToMarkdown(html)).toBe("| Flag | Default |\n| :-- | --: |\n| `--port` | 8080 |\n| a \\| b | multi line |");
  });

  it("a task list keeps its boxes, and struck text stays struck the way GFM reads it", () => {
    const html = `<ul><li><input type="checkbox" checked disabled> ship it</li><li><input type="checkbox" disabled> <del>drop</del> keep</li></ul>`;
    expect(htmlToMarkdown(html)).toBe("- [x] ship it\n- [ ] ~~drop~~ keep");
  });

  it("text that would read as Markdown is escaped, so a pasted sentence does not turn into a heading or a list", () => {
    const html = "<p># not a heading</p><p>1. not a list</p><p>*not emphasis*</p><p><b>real</b></p>";
    expect(htmlToMarkdown(html)).toBe("\\# not a heading\n\n1\\. not a list\n\n\\*not emphasis\\*\n\n**real**");
  });

  it("a page's images become their alt text, never a data: address", () => {
    expect(htmlToMarkdown('<p><img src="data:image/png;base64,AAAA" alt="diagram"> shows <em>flow</em></p>')).toBe("diagram shows *flow*");
  });

  it("a code block whose text holds a fence gets a longer fence, and a bare <pre> is code too", () => {
    expect(htmlToMarkdown("<pre><code>```\ninner\n```</code></pre>")).toBe("````\n```\ninner\n```\n````");
    expect(htmlToMarkdown("<pre>  keep\n    spaces</pre>")).toBe("```\n  keep\n    spaces\n```");
  });

  it("a chat message's paragraphs, links and mentions come through as text and links", () => {
    const html = `<div><p>Hi <span>@ada</span>, see <a href="https://github.com/o/r/pull/7">#7</a></p><p>thanks!</p></div>`;
    expect(htmlToMarkdown(html)).toBe("Hi @ada, see [#7](https://github.com/o/r/pull/7)\n\nthanks!");
  });
});
