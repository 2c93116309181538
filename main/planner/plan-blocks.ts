/**
 * A plan as the Planner's read_plan gives it (issue #26): its top-level Markdown blocks as the editor's parser reads
 * them (@lezer/markdown with GitHub's extensions), each with its source, its kind, its index and a digest of its source
 * (sha-256, hex). edit_plan names blocks by index and digest, so an edit meant for a block that has changed since it
 * was read is refused rather than applied to whatever sits there now.
 *
 * What must stay true: the blocks' sources, in order, are exactly the text's top-level blocks (nothing outside them but
 * the blank space between); a block's digest depends on its source alone.
 */
import { createHash } from "node:crypto";
import { GFM, parser as commonMark } from "@lezer/markdown";

const parser = commonMark.configure(GFM);

export type BlockKind = "heading" | "paragraph" | "list" | "code" | "quote" | "table" | "rule" | "html" | "other";

export interface PlanBlock {
  index: number;
  digest: string;
  kind: BlockKind;
  markdown: string;
}

const KINDS: Record<string, BlockKind> = {
  ATXHeading1: "heading",
  ATXHeading2: "heading",
  ATXHeading3: "heading",
  ATXHeading4: "heading",
  ATXHeading5: "heading",
  ATXHeading6: "heading",
  SetextHeading1: "heading",
  SetextHeading2: "heading",
  Paragraph: "paragraph",
  BulletList: "list",
  OrderedList: "list",
  FencedCode: "code",
  CodeBlock: "code",
  Blockquote: "quote",
  Table: "table",
  HorizontalRule: "rule",
  HTMLBlock: "html",
  CommentBlock: "html",
};

export function digestOf(markdown: string): string {
  return createHash("sha256").update(markdown, "utf8").digest("hex");
}

/** A block with where its source sits in the text (from inclusive, to exclusive). */
export interface PlanBlockSpan extends PlanBlock {
  from: number;
  to: number;
}

/** The text's top-level blocks, in order, with their places in the text. */
export function planBlockSpans(markdown: string): PlanBlockSpan[] {
  const blocks: PlanBlockSpan[] = [];
  const cursor = parser.parse(markdown).topNode.cursor();
  if (!cursor.firstChild()) return blocks;
  do {
    // Link reference definitions and the like still are source the plan holds: kept, as "other".
    const source = markdown.slice(cursor.from, cursor.to).replace(/\s+$/u, "");
    if (source.trim() === "") continue;
    blocks.push({ index: blocks.length, digest: digestOf(source), kind: KINDS[cursor.name] ?? "other", markdown: source, from: cursor.from, to: cursor.from + source.length });
  } while (cursor.nextSibling());
  return blocks;
}

/** The text's top-level blocks, in order, as read_plan gives them. */
export function planBlocks(markdown: string): PlanBlock[] {
  return planBlockSpans(markdown).map(({ index, digest, kind, markdown: source }) => ({ index, digest, kind, markdown: source }));
}
