import { next as A } from "@automerge/automerge";
import { describe, expect, it } from "vitest";
import { sha256, toHex } from "./sha256.js";

const text = (s: string) => new TextEncoder().encode(s);

describe("sha256", () => {
  it("gives the FIPS 180-4 digests of the standard vectors (one block, two blocks, a million bytes)", () => {
    expect(toHex(sha256(new Uint8Array(0)))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(toHex(sha256(text("abc")))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(toHex(sha256(text("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")))).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
    expect(
      toHex(sha256(text("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"))),
    ).toBe("cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    expect(toHex(sha256(new Uint8Array(1_000_000).fill(0x61)))).toBe("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  });

  it("agrees with Automerge's change hashes across every padding boundary (bodies of many lengths)", () => {
    let doc = A.from<{ text: string }>({ text: "" });
    const lengths = new Set<number>();
    for (let n = 0; n < 140; n++) {
      doc = A.change(doc, (d) => A.splice(d, ["text"], 0, 0, "x".repeat(n)));
      const change = A.getLastLocalChange(doc)!;
      lengths.add((change.length - 8) % 64);
      expect(toHex(sha256(change.subarray(8)))).toBe(A.decodeChange(change).hash);
    }
    // Every remainder mod 64 came up, so the one-extra-block padding cases (55, 56..63) were all exercised.
    expect(lengths.size).toBe(64);
  });
});
