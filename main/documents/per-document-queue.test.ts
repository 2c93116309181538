/** Writes to one document run one at a time in call order; other documents are not held up; failures do not block. */
import { describe, expect, it } from "vitest";
import { PerDocumentQueue } from "./per-document-queue.js";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("PerDocumentQueue", () => {
  it("runs writes to one document in call order, each after the previous settled, failures included", async () => {
    const queue = new PerDocumentQueue();
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = queue.run("a", async () => {
      order.push("first start");
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      order.push("first end");
      throw new Error("first failed");
    });
    const second = queue.run("a", async () => {
      order.push("second");
      return 2;
    });
    const other = queue.run("b", async () => {
      order.push("other document");
      return "b";
    });
    await tick();
    expect(order).toEqual(["first start", "other document"]);
    releaseFirst();
    await expect(first).rejects.toThrow("first failed");
    await expect(second).resolves.toBe(2);
    await expect(other).resolves.toBe("b");
    expect(order).toEqual(["first start", "other document", "first end", "second"]);
    await tick();
    expect(queue.size).toBe(0);
  });
});
