import { afterEach, describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import { Repo, encodeHeads } from "@automerge/automerge-repo";
import { whenHoldsHeads } from "./snapshot-catch-up.js";

const repos: Repo[] = [];
afterEach(() => repos.splice(0).forEach((r) => void r.shutdown()));

function twoCopies() {
  const repo = new Repo({});
  repos.push(repo);
  const ahead = repo.create<{ text: string }>({ text: "one" });
  const behind = repo.import<{ text: string }>(A.save(ahead.doc()));
  ahead.change((d) => A.splice(d, ["text"], 3, 0, " two"));
  return { ahead, behind };
}

describe("waiting for the snapshot's heads", () => {
  it("settles true at once when the document already holds them, and for no heads", async () => {
    const { ahead } = twoCopies();
    await expect(whenHoldsHeads(ahead, ahead.heads(), 60_000)).resolves.toBe(true);
    await expect(whenHoldsHeads(ahead, [], 60_000)).resolves.toBe(true);
  });

  it("settles true when the missing changes arrive", async () => {
    const { ahead, behind } = twoCopies();
    const held = whenHoldsHeads(behind, ahead.heads(), 60_000);
    behind.update((d) => A.merge(d, ahead.doc()));
    await expect(held).resolves.toBe(true);
    expect(behind.doc().text).toBe("one two");
  });

  it("settles false once its bound passes without them, and for heads it cannot read; the document is untouched", async () => {
    const { ahead, behind } = twoCopies();
    const before = behind.heads();
    await expect(whenHoldsHeads(behind, ahead.heads(), 20)).resolves.toBe(false);
    await expect(whenHoldsHeads(behind, ["not a head"], 60_000)).resolves.toBe(false);
    expect(behind.heads()).toEqual(before);
    expect(encodeHeads(A.getHeads(behind.doc()))).toEqual(before);
  });
});
