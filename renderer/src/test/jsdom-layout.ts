/**
 * jsdom has no layout engine: Range lacks getClientRects/getBoundingClientRect, which CodeMirror calls when it
 * measures. Empty geometry is what a zero-size layout reports; tests here check document content, never geometry.
 */
if (typeof Range !== "undefined" && !Range.prototype.getClientRects) {
  const empty = { length: 0, item: () => null, [Symbol.iterator]: function* () {} };
  Range.prototype.getClientRects = () => empty as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 0, 0);
}
export {};
