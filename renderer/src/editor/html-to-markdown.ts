/**
 * Turns the HTML a browser, a word processor or a chat app puts on the clipboard into the Markdown a plan is written
 * in, so a pasted link keeps its address and a pasted list stays a list (UX audit: a rich paste kept only the text;
 * every link in it was lost). The conversion is turndown's with its GFM plugin (tables, task lists, strikethrough,
 * escaping of text that would otherwise read as Markdown); the rules below are where a plan's Markdown differs from
 * turndown's defaults.
 * What must stay true: only web and mail addresses become links (javascript:, data: and the like stay text), images
 * become their alt text (a plan holds no pictures, and a data: address would be megabytes), every table becomes a
 * GFM table (its first row the header when it has none), and a clipboard with nothing Markdown can carry returns null
 * so the plain-text paste is left alone.
 */
import TurndownService from "turndown";
import { gfm } from "turndown-plugin-gfm";

/** Addresses a pasted link may keep: the ones a plan's reader can follow outside the app. */
const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** Elements whose presence makes a rich paste worth converting (anything else pastes as plain text). */
const MARKUP_WORTH_KEEPING = "a[href], h1, h2, h3, h4, h5, h6, li, pre, blockquote, strong, b, em, i, code, hr, table, s, del, strike";

const STRUCK = new Set(["DEL", "S", "STRIKE"]);

const DROPPED: TurndownService.TagName[] = ["head", "script", "style", "template", "title", "meta", "link", "noscript"];

/** The Markdown for `html`, or null when it holds nothing Markdown keeps beyond its text. */
export function htmlToMarkdown(html: string, parser: DOMParser = new DOMParser()): string | null {
  const dom = parser.parseFromString(html, "text/html");
  if (!dom.body.querySelector(MARKUP_WORTH_KEEPING)) return null;
  const markdown = converter().turndown(dom.body).replace(/\n{3,}/g, "\n\n").trim();
  return markdown === "" ? null : markdown;
}

let service: TurndownService | null = null;

function converter(): TurndownService {
  if (service) return service;
  service = new TurndownService({
    headingStyle: "atx",
    hr: "---",
    bulletListMarker: "-",
    codeBlockStyle: "fenced",
    emDelimiter: "*",
    strongDelimiter: "**",
    // A line break stays a line of the plan's source, not a trailing-spaces hard break.
    br: "",
  });
  service.use(gfm);
  service.remove(DROPPED);
  // Rules added later win over earlier ones and over the plugin's.
  service.addRule("listItem", { filter: "li", replacement: listItem });
  service.addRule("blockquote", {
    filter: "blockquote",
    replacement: (content) => `\n\n${content.replace(/^\n+|\n+$/g, "").split("\n").map((line) => (line ? `> ${line}` : ">")).join("\n")}\n\n`,
  });
  service.addRule("preWithoutCode", {
    filter: (node) => node.nodeName === "PRE" && node.firstChild?.nodeName !== "CODE",
    replacement: (_content, node) => fenced((node as HTMLElement).textContent ?? ""),
  });
  service.addRule("strikethrough", { filter: (node) => STRUCK.has(node.nodeName), replacement: (content) => (content.trim() ? `~~${content}~~` : content) });
  service.addRule("image", { filter: "img", replacement: (_content, node) => (node as HTMLElement).getAttribute("alt") ?? "" });
  service.addRule("link", { filter: (node) => node.nodeName === "A" && (node as HTMLElement).hasAttribute("href"), replacement: link });
  // Google Docs wraps a whole paste in <b style="font-weight:normal">: not bold. Its bold and italic are styled spans.
  service.addRule("normalWeight", { filter: (node) => (node.nodeName === "B" || node.nodeName === "STRONG") && isNormalWeight(node), replacement: (content) => content });
  service.addRule("styledSpan", {
    filter: (node) => node.nodeName === "SPAN" && (isBold(node) || isItalic(node)),
    replacement: (content, node) => {
      if (!content.trim()) return content;
      const italic = isItalic(node) ? `*${content}*` : content;
      return isBold(node) ? `**${italic}**` : italic;
    },
  });
  service.addRule("tableCell", { filter: ["th", "td"], replacement: tableCell });
  service.addRule("tableRow", { filter: "tr", replacement: tableRow });
  service.addRule("table", { filter: "table", replacement: (content) => `\n\n${content.replace(/^\n+|\n+$/g, "").replace(/\n{2,}/g, "\n")}\n\n` });
  return service;
}

/** One item: a tight marker ("- ", "3. "), the lines after the first indented to the item's text. */
function listItem(content: string, node: TurndownService.Node): string {
  const parent = node.parentNode as HTMLElement | null;
  let marker = "- ";
  if (parent?.nodeName === "OL") {
    const start = Number(parent.getAttribute("start") ?? "1");
    marker = `${(Number.isFinite(start) ? start : 1) + Array.prototype.indexOf.call(parent.children, node)}. `;
  }
  // A task item's box ("[x] ", from the GFM plugin) and the item's own leading space make one space.
  const body = content.replace(/^\n+|\n+$/g, "").replace(/\n{2,}/g, "\n").replace(/^(\[[ x]\])\s+/, "$1 ");
  if (!body.trim()) return "";
  return `${marker}${body.replace(/\n(?=.)/g, `\n${" ".repeat(marker.length)}`)}${node.nextSibling ? "\n" : ""}`;
}

function fenced(code: string): string {
  const text = code.replace(/\n$/, "");
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `\n\n${fence}\n${text}\n${fence}\n\n`;
}

function link(content: string, node: TurndownService.Node): string {
  const anchor = node as HTMLElement;
  const href = anchor.getAttribute("href")?.trim() ?? "";
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return content;
  }
  if (!LINK_PROTOCOLS.has(url.protocol)) return content;
  // Parentheses and spaces would end the Markdown link early: percent-encoded, they mean the same address.
  const address = url.href.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
  const text = (anchor.textContent ?? "").replace(/\s+/g, " ").trim();
  // A link whose text is its address reads best as the address alone (an autolink).
  if (!text || text === href || text === url.href) return `<${address}>`;
  return `[${content.replace(/\s+/g, " ").trim()}](${address})`;
}

/** A cell on one line, its pipes escaped so they do not split the row. */
function tableCell(content: string, node: TurndownService.Node): string {
  const text = content.replace(/\n+/g, " ").replace(/\|/g, "\\|").trim();
  return `${node.previousSibling ? " " : "| "}${text} |`;
}

/** A row; after the table's first row, the delimiter row that makes it the header. */
function tableRow(content: string, node: TurndownService.Node): string {
  const row = node as HTMLTableRowElement;
  const table = row.closest("table");
  if (!table || table.rows[0] !== row) return `\n${content}`;
  const delimiter = Array.from(row.cells, (cell, i) => {
    const align = (cell.getAttribute("align") ?? "").toLowerCase();
    const rule = align === "left" ? ":--" : align === "right" ? "--:" : align === "center" ? ":-:" : "---";
    return `${i === 0 ? "| " : " "}${rule} |`;
  }).join("");
  return `\n${content}\n${delimiter}`;
}

function styleOf(node: TurndownService.Node): CSSStyleDeclaration | undefined {
  return (node as HTMLElement).style;
}

function isNormalWeight(node: TurndownService.Node): boolean {
  const weight = styleOf(node)?.fontWeight;
  return weight === "normal" || weight === "400";
}

function isBold(node: TurndownService.Node): boolean {
  return /^(bold|[6-9]00)$/.test(styleOf(node)?.fontWeight ?? "");
}

function isItalic(node: TurndownService.Node): boolean {
  return styleOf(node)?.fontStyle === "italic";
}
