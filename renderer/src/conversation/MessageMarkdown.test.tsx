// @vitest-environment jsdom
import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { MessageMarkdown } from "./MessageMarkdown.js";

const html = (text: string) => render(<MessageMarkdown text={text} />).container.querySelector(".message-markdown")!.innerHTML;

describe("a message's Markdown", () => {
  it("renders emphasis, code, lists, quotes and fenced code as elements", () => {
    expect(html("Hello **room**, see `npm test` and *this*")).toBe("<p>Hello <strong>room</strong>, see <code>npm test</code> and <em>this</em></p>");
    expect(html("- one\n- two")).toBe("<ul><li><p>one</p></li><li><p>two</p></li></ul>");
    expect(html("1. first\n2. second")).toBe("<ol><li><p>first</p></li><li><p>second</p></li></ol>");
    expect(html("> quoted")).toBe("<blockquote><p>quoted</p></blockquote>");
    expect(html("```ts\nconst a = 1 < 2;\n```")).toBe("<pre><code>const a = 1 &lt; 2;</code></pre>");
    expect(html("~~gone~~ kept")).toBe("<p><s>gone</s> kept</p>");
  });

  it("opens only web and mail links, outside the app", () => {
    expect(html("[spec](https://example.com/a)")).toBe('<p><a href="https://example.com/a" target="_blank" rel="noopener noreferrer">spec</a></p>');
    expect(html("[x](javascript:alert(1))")).toBe("<p><span>x</span></p>");
    expect(html("<https://example.com>")).toContain('href="https://example.com/"');
  });

  it("shows raw HTML as its text, never as markup, and images as their alt text", () => {
    const shown = render(<MessageMarkdown text={'<img src=x onerror="alert(1)"> and <b>bold</b>'} />).container;
    expect(shown.querySelector("img, b")).toBeNull();
    expect(shown.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(html("![diagram](https://example.com/d.png)")).toBe('<p><span class="message-image-alt">diagram</span></p>');
  });

  it("keeps words a construct it reads as Markdown would otherwise hide", () => {
    expect(render(<MessageMarkdown text={"a \\*literal\\* star & more"} />).container.textContent).toBe("a *literal* star & more");
    expect(render(<MessageMarkdown text={"- [x] done\n- [ ] open"} />).container.querySelectorAll("input[type=checkbox]").length).toBe(2);
  });
});
