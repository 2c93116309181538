import { describe, expect, it } from "vitest";
import { leaseRequestSchema } from "./lease-wire.js";
import { MAX_FENCED_WRITE_BYTES, MAX_FENCED_WRITE_CHANGES } from "./limits.js";

const write = (changes: Uint8Array[]) => ({ op: "fenced-write", channelId: "c", documentId: "c", generation: 1, changes });

describe("the fenced-write request on the lease wire", () => {
  it("takes up to MAX_FENCED_WRITE_BYTES of change data in up to MAX_FENCED_WRITE_CHANGES changes, and no more", () => {
    expect(leaseRequestSchema.safeParse(write([new Uint8Array(MAX_FENCED_WRITE_BYTES)])).success).toBe(true);
    expect(leaseRequestSchema.safeParse(write([new Uint8Array(MAX_FENCED_WRITE_BYTES - 1), new Uint8Array(2)])).success).toBe(false);
    expect(leaseRequestSchema.safeParse(write(Array.from({ length: MAX_FENCED_WRITE_CHANGES }, () => new Uint8Array(1)))).success).toBe(true);
    expect(leaseRequestSchema.safeParse(write(Array.from({ length: MAX_FENCED_WRITE_CHANGES + 1 }, () => new Uint8Array(1)))).success).toBe(false);
  });

  it("refuses an empty write, a generation below 1, and changes that are not bytes", () => {
    expect(leaseRequestSchema.safeParse(write([])).success).toBe(false);
    expect(leaseRequestSchema.safeParse({ ...write([new Uint8Array(1)]), generation: 0 }).success).toBe(false);
    expect(leaseRequestSchema.safeParse(write(["abc" as never])).success).toBe(false);
  });
});
