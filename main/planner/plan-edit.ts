/**
 * The Planner's edit_plan (issue #26): 1 to MAX_PLAN_EDIT_OPERATIONS operations on the plan's top-level blocks
 * (insert after a block or at the start, replace, move after a block or to the start, delete), each naming blocks by
 * index and digest as read_plan gave them. The whole batch applies or none of it: a block that no longer matches its
 * digest, a block the batch already deleted or changed, or a result with nothing left in it refuses everything.
 *
 * What must stay true: blocks the batch does not touch keep their source and the blank space that followed them while
 * their neighbour stays the same, so an edit changes the text only where it meant to (people's concurrent typing
 * elsewhere merges); several inserts after one block keep the batch's order.
 */
import { z } from "zod";
import { MAX_PLAN_EDIT_CHARS, MAX_PLAN_EDIT_OPERATIONS } from "../util/limits.js";
import type { PlanBlockSpan } from "./plan-blocks.js";

const blockRef = z.object({ index: z.number().int().min(0), digest: z.string().regex(/^[0-9a-f]{64}$/, "a block's digest is 64 hex characters, as read_plan gives it") }).strict();
const markdown = z.string().min(1).refine((text) => text.trim() !== "", "a block needs some text");

export const planOperationSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("insert"), after: blockRef.nullable(), markdown }).strict(),
  z.object({ op: z.literal("replace"), block: blockRef, markdown }).strict(),
  z.object({ op: z.literal("move"), block: blockRef, after: blockRef.nullable() }).strict(),
  z.object({ op: z.literal("delete"), block: blockRef }).strict(),
]);
export type PlanOperation = z.infer<typeof planOperationSchema>;

export const editPlanInputSchema = z
  .object({
    revision: z.string().min(1).max(4096),
    operations: z.array(planOperationSchema).min(1).max(MAX_PLAN_EDIT_OPERATIONS),
  })
  .strict()
  .refine(
    ({ operations }) => operations.reduce((sum, op) => sum + ("markdown" in op ? op.markdown.length : 0), 0) <= MAX_PLAN_EDIT_CHARS,
    `an edit carries at most ${MAX_PLAN_EDIT_CHARS} characters of Markdown`,
  );

export type PlanEditRefusal = "stale-block" | "conflicting-operations" | "would-empty";
export type PlanEditResult = { ok: true; markdown: string } | { ok: false; refusal: PlanEditRefusal; message: string };

interface Item {
  source: string;
  /** The index the block had when read; null for a block this batch inserted. */
  origin: number | null;
  /** The blank space that followed it in the text (originals only). */
  gapAfter: string | null;
  /** The original block that followed it, to know whether its gap still belongs. */
  nextOrigin: number | null;
  touched: boolean;
}

const refuse = (refusal: PlanEditRefusal, message: string): PlanEditResult => ({ ok: false, refusal, message });

export function applyPlanEdit(text: string, blocks: readonly PlanBlockSpan[], operations: readonly PlanOperation[]): PlanEditResult {
  const items: Item[] = blocks.map((block, i) => ({
    source: block.markdown,
    origin: block.index,
    gapAfter: i + 1 < blocks.length ? text.slice(block.to, blocks[i + 1]!.from) : null,
    nextOrigin: i + 1 < blocks.length ? blocks[i + 1]!.index : null,
    touched: false,
  }));
  const leading = blocks.length > 0 ? text.slice(0, blocks[0]!.from) : "";
  const trailing = blocks.length > 0 ? text.slice(blocks.at(-1)!.to) : "\n";
  /** Per anchor (a block's original index, or -1 for the start): the last item this batch put after it. */
  const lastPlaced = new Map<number, Item>();

  const stale = (ref: { index: number; digest: string }) => blocks[ref.index]?.digest !== ref.digest;
  const find = (ref: { index: number }) => items.find((item) => item.origin === ref.index);
  const place = (item: Item, after: { index: number } | null): boolean => {
    const anchorKey = after?.index ?? -1;
    const anchor = lastPlaced.get(anchorKey) ?? (after ? find(after) : undefined);
    if (after && !anchor) return false;
    items.splice(anchor ? items.indexOf(anchor) + 1 : 0, 0, item);
    lastPlaced.set(anchorKey, item);
    return true;
  };

  for (const [n, op] of operations.entries()) {
    const refs = [..."block" in op ? [op.block] : [], ...("after" in op && op.after ? [op.after] : [])];
    const which = refs.find(stale);
    if (which) return refuse("stale-block", `Operation ${n + 1} names block ${which.index}, which has changed since it was read (or is not there): read the plan again.`);
    const conflict = () => refuse("conflicting-operations", `Operation ${n + 1} names a block an earlier operation of this edit deleted, replaced or moved.`);
    switch (op.op) {
      case "insert":
        if (!place({ source: op.markdown, origin: null, gapAfter: null, nextOrigin: null, touched: true }, op.after)) return conflict();
        break;
      case "replace": {
        const item = find(op.block);
        if (!item || item.touched) return conflict();
        item.source = op.markdown;
        item.touched = true;
        break;
      }
      case "move": {
        const item = find(op.block);
        if (!item || item.touched || op.after?.index === op.block.index) return conflict();
        items.splice(items.indexOf(item), 1);
        item.touched = true;
        if (!place(item, op.after)) return conflict();
        break;
      }
      case "delete": {
        const item = find(op.block);
        if (!item || item.touched) return conflict();
        items.splice(items.indexOf(item), 1);
        break;
      }
    }
  }

  let out = leading;
  for (const [i, item] of items.entries()) {
    out += item.source;
    if (i + 1 < items.length) out += item.gapAfter !== null && items[i + 1]!.origin === item.nextOrigin ? item.gapAfter : "\n\n";
  }
  out += items.length > 0 ? trailing || "\n" : "";
  if (out.trim() === "") return refuse("would-empty", "The edit would leave the plan empty; the Planner cannot empty a plan.");
  return { ok: true, markdown: out };
}
