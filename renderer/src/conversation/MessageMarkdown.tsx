/**
 * A conversation message's Markdown, rendered as React elements from the parse tree of the Markdown parser the editor
 * ships (@lezer/markdown with GitHub's extensions). Messages arrive from other people and from the Planner, so this
 * never builds HTML from text: every node becomes an element React escapes, raw HTML in a message shows as its text,
 * and only web and mail addresses become links (opened outside the app). What Markdown constructs it does not know
 * show as their source text, never dropped.
 */
import type { ReactNode } from "react";
import { GFM, parser as commonMark } from "@lezer/markdown";
import type { SyntaxNode } from "@lezer/common";

const parser = commonMark.configure(GFM);

/** Addresses a link may open: the ones a reader can follow outside the app. */
const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** Syntax marks that are Markdown, not words: left out of what is shown. */
const MARKS = new Set(["EmphasisMark", "CodeMark", "LinkMark", "HeaderMark", "QuoteMark", "ListMark", "StrikethroughMark", "URL", "LinkTitle", "LinkLabel", "CodeInfo", "TaskMarker"]);

export function MessageMarkdown({ text }: { text: string }) {
  const tree = parser.parse(text);
  return <div className="message-markdown">{childrenOf(tree.topNode, text)}</div>;
}

function childrenOf(node: SyntaxNode, text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let at = node.from;
  let key = 0;
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.from > at) out.push(gap(text.slice(at, child.from), node));
    if (!MARKS.has(child.name)) out.push(<Fragment key={key++} node={child} text={text} />);
    at = child.to;
  }
  if (node.to > at) out.push(gap(text.slice(at, node.to), node));
  return out;
}

/** Text between a node's children: in a block container only line breaks (dropped); inline, the words themselves. */
function gap(slice: string, parent: SyntaxNode): string {
  if (isBlockContainer(parent.name)) return "";
  return slice;
}

function isBlockContainer(name: string): boolean {
  return name === "Document" || name === "BulletList" || name === "OrderedList" || name === "Blockquote" || name === "ListItem" || name === "Table" || name === "TableHeader" || name === "TableRow";
}

function Fragment({ node, text }: { node: SyntaxNode; text: string }): ReactNode {
  const inner = () => childrenOf(node, text);
  switch (node.name) {
    case "Paragraph":
      return <p>{inner()}</p>;
    case "ATXHeading1":
    case "ATXHeading2":
    case "ATXHeading3":
    case "ATXHeading4":
    case "ATXHeading5":
    case "ATXHeading6":
    case "SetextHeading1":
    case "SetextHeading2":
      // A heading inside a message is emphasis in a chat, not a document outline entry.
      return <p className="message-heading">{trimmed(inner())}</p>;
    case "Emphasis":
      return <em>{inner()}</em>;
    case "StrongEmphasis":
      return <strong>{inner()}</strong>;
    case "Strikethrough":
      return <s>{inner()}</s>;
    case "InlineCode":
      return <code>{codeText(node, text)}</code>;
    case "FencedCode":
    case "CodeBlock":
      return (
        <pre>
          <code>{blockCode(node, text)}</code>
        </pre>
      );
    case "BulletList":
      return <ul>{inner()}</ul>;
    case "OrderedList":
      return <ol>{inner()}</ol>;
    case "ListItem":
      return <li>{inner()}</li>;
    case "Task": {
      const marker = node.getChild("TaskMarker");
      const done = marker ? /x/i.test(text.slice(marker.from, marker.to)) : false;
      return (
        <span className="message-task">
          <input type="checkbox" checked={done} readOnly disabled aria-label={done ? "Done" : "Not done"} /> {trimmed(inner())}
        </span>
      );
    }
    case "Blockquote":
      return <blockquote>{inner()}</blockquote>;
    case "HorizontalRule":
      return <hr />;
    case "HardBreak":
      return <br />;
    case "Link":
      return link(node, text, inner());
    case "Autolink":
    case "URL":
      return link(node, text, [text.slice(node.from, node.to).replace(/^<|>$/g, "")]);
    case "Image":
      // A message shows no pictures (nothing is fetched); the alt text stands in.
      return <span className="message-image-alt">{inner()}</span>;
    case "Escape":
      return text.slice(node.from + 1, node.to);
    case "Entity":
      return text.slice(node.from, node.to);
    default:
      // HTML and anything else: its source, as text.
      return text.slice(node.from, node.to);
  }
}

function link(node: SyntaxNode, text: string, content: ReactNode[]): ReactNode {
  const urlNode = node.name === "URL" ? node : node.getChild("URL");
  const raw = urlNode ? text.slice(urlNode.from, urlNode.to).replace(/^<|>$/g, "") : "";
  let href: string | null = null;
  try {
    const url = new URL(raw);
    if (LINK_PROTOCOLS.has(url.protocol)) href = url.href;
  } catch {
    href = null;
  }
  if (!href) return <span>{content}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {content}
    </a>
  );
}

function codeText(node: SyntaxNode, text: string): string {
  const marks = node.getChildren("CodeMark");
  const from = marks[0]?.to ?? node.from;
  const to = marks.length > 1 ? marks[marks.length - 1]!.from : node.to;
  const code = text.slice(from, to);
  // CommonMark: one space of padding on each side is stripped when both are there and the code is not all spaces.
  return /^ .* $/s.test(code) && code.trim() !== "" ? code.slice(1, -1) : code;
}

function blockCode(node: SyntaxNode, text: string): string {
  const codeText = node.getChildren("CodeText");
  if (codeText.length > 0) return codeText.map((c) => text.slice(c.from, c.to)).join("\n");
  if (node.name === "CodeBlock") return text.slice(node.from, node.to).replace(/^ {4}/gm, "");
  return "";
}

function trimmed(nodes: ReactNode[]): ReactNode[] {
  if (typeof nodes[0] === "string") nodes[0] = nodes[0].replace(/^\s+/, "");
  const last = nodes.length - 1;
  if (typeof nodes[last] === "string") nodes[last] = (nodes[last] as string).replace(/\s+$/, "");
  return nodes;
}
