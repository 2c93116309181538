/**
 * Turns the HTML a browser, a word processor or a chat app puts on the clipboard into the Markdown a plan is written
 * in, so a pasted link keeps its address and a pasted list stays a list (UX audit: a rich paste kept only the text;
 * every link in it was lost). It keeps what Markdown can say (links, headings, lists, emphasis, code, quotes, rules)
 * and drops the rest (styles, scripts, images become their alt text).
 * What must stay true: only web and mail addresses become links (javascript:, data: and the like stay text), and a
 * clipboard with nothing Markdown can carry returns null so the plain-text paste is left alone.
 */

/** Addresses a pasted link may keep: the ones a plan's reader can follow outside the app. */
const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** Elements whose presence makes a rich paste worth converting (anything else pastes as plain text). */
const MARKUP_WORTH_KEEPING = "a[href], h1, h2, h3, h4, h5, h6, li, pre, blockquote, strong, b, em, i, code, hr";

const BLOCKS = new Set([
  "ADDRESS", "ARTICLE", "ASIDE", "BLOCKQUOTE", "BODY", "DD", "DIV", "DL", "DT", "FIGCAPTION", "FIGURE", "FOOTER", "H1",
  "H2", "H3", "H4", "H5", "H6", "HEADER", "HR", "LI", "MAIN", "NAV", "OL", "P", "PRE", "SECTION", "TABLE", "TBODY",
  "THEAD", "TFOOT", "TR", "UL",
]);
const SKIPPED = new Set(["HEAD", "SCRIPT", "STYLE", "TEMPLATE", "TITLE", "META", "LINK", "NOSCRIPT"]);

/** The Markdown for `html`, or null when it holds nothing Markdown keeps beyond its text. */
export function htmlToMarkdown(html: string, parser: DOMParser = new DOMParser()): string | null {
  const dom = parser.parseFromString(html, "text/html");
  if (!dom.body.querySelector(MARKUP_WORTH_KEEPING)) return null;
  const markdown = blocksOf(dom.body).join("\n\n").replace(/\n{3,}/g, "\n\n").trim();
  return markdown === "" ? null : markdown;
}

/** The Markdown blocks of an element's children: runs of inline content become paragraphs. */
function blocksOf(parent: Node): string[] {
  const blocks: string[] = [];
  let run = "";
  const endRun = () => {
    const text = run.replace(/[ \t]*\n[ \t]*/g, "\n").trim();
    if (text) blocks.push(text);
    run = "";
  };
  for (const child of Array.from(parent.childNodes)) {
    if (child instanceof Element && SKIPPED.has(child.tagName)) continue;
    if (child instanceof Element && BLOCKS.has(child.tagName)) {
      endRun();
      const block = blockOf(child);
      if (block) blocks.push(block);
    } else run += inlineOf(child);
  }
  endRun();
  return blocks;
}

function blockOf(el: Element): string {
  const tag = el.tagName;
  const heading = /^H([1-6])$/.exec(tag);
  if (heading) {
    const text = inlineChildren(el).replace(/\s+/g, " ").trim();
    return text ? `${"#".repeat(Number(heading[1]))} ${text}` : "";
  }
  switch (tag) {
    case "UL":
    case "OL":
      return listOf(el);
    case "LI":
      return listItem(el, "- ");
    case "PRE": {
      const code = (el.textContent ?? "").replace(/\n$/, "");
      const fence = code.includes("```") ? "````" : "```";
      return `${fence}\n${code}\n${fence}`;
    }
    case "BLOCKQUOTE":
      return blocksOf(el).join("\n\n").split("\n").map((line) => (line ? `> ${line}` : ">")).join("\n");
    case "HR":
      return "---";
    case "TR":
      return Array.from(el.children).map((cell) => inlineChildren(cell).replace(/\s+/g, " ").trim()).join(" | ");
    case "TABLE":
    case "TBODY":
    case "THEAD":
    case "TFOOT":
      return Array.from(el.querySelectorAll(":scope > tr, :scope > * > tr")).map(blockOf).filter(Boolean).join("\n");
    default:
      return blocksOf(el).join("\n\n");
  }
}

function listOf(list: Element): string {
  const ordered = list.tagName === "OL";
  const start = Number(list.getAttribute("start") ?? "1");
  let n = Number.isFinite(start) ? start : 1;
  const items: string[] = [];
  for (const child of Array.from(list.children)) {
    if (child.tagName === "LI") items.push(listItem(child, ordered ? `${n++}. ` : "- "));
    else if (child.tagName === "UL" || child.tagName === "OL") items.push(indent(listOf(child), "  "));
  }
  return items.filter(Boolean).join("\n");
}

/** One item: its first line after the marker, the lines after it indented to the item's text. */
function listItem(item: Element, marker: string): string {
  const body = blocksOf(item).join("\n");
  if (!body) return "";
  const [first, ...rest] = body.split("\n");
  return [marker + first, ...rest.map((line) => (line ? " ".repeat(marker.length) + line : line))].join("\n");
}

function indent(text: string, by: string): string {
  return text.split("\n").map((line) => (line ? by + line : line)).join("\n");
}

function inlineChildren(el: Node): string {
  return Array.from(el.childNodes).map(inlineOf).join("");
}

function inlineOf(node: Node): string {
  if (node.nodeType === node.TEXT_NODE) return (node.textContent ?? "").replace(/\s+/g, " ");
  if (!(node instanceof Element) || SKIPPED.has(node.tagName)) return "";
  if (BLOCKS.has(node.tagName)) return `\n${blockOf(node)}\n`;
  const inner = inlineChildren(node);
  switch (node.tagName) {
    case "BR":
      return "\n";
    case "A":
      return linkOf(node, inner);
    case "CODE":
    case "KBD":
    case "SAMP":
      return codeSpan(node.textContent ?? "");
    case "IMG":
      return node.getAttribute("alt") ?? "";
    case "S":
    case "DEL":
    case "STRIKE":
      return wrap(inner, "~~");
    case "STRONG":
    case "B":
      // Google Docs wraps a whole paste in <b style="font-weight:normal">: not bold.
      return isNormalWeight(node) ? inner : wrap(inner, "**");
    case "EM":
    case "I":
      return wrap(inner, "*");
    default: {
      const style = (node as HTMLElement).style;
      const bold = style && /^(bold|[6-9]00)$/.test(style.fontWeight);
      const italic = style && style.fontStyle === "italic";
      return wrap(wrap(inner, italic ? "*" : ""), bold ? "**" : "");
    }
  }
}

function isNormalWeight(el: Element): boolean {
  const weight = (el as HTMLElement).style?.fontWeight;
  return weight === "normal" || weight === "400";
}

/** `marker` around the text, its outer spaces kept outside (Markdown emphasis cannot start or end with a space). */
function wrap(text: string, marker: string): string {
  if (!marker) return text;
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
  return match[2] ? `${match[1]}${marker}${match[2]}${marker}${match[3]}` : text;
}

function codeSpan(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  if (!flat.trim()) return flat;
  const ticks = flat.includes("`") ? "``" : "`";
  const pad = ticks === "``" ? " " : "";
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

function linkOf(a: Element, inner: string): string {
  const href = a.getAttribute("href")?.trim() ?? "";
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return inner;
  }
  if (!LINK_PROTOCOLS.has(url.protocol)) return inner;
  // Parentheses and spaces would end the Markdown link early: percent-encoded, they mean the same address.
  const address = url.href.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
  const text = inner.replace(/\s+/g, " ").trim();
  // A link whose text is its address reads best as the address alone (an autolink).
  if (!text || text === href || text === url.href) return `<${address}>`;
  return `[${text.replace(/([[\]])/g, "\\$1")}](${address})`;
}
