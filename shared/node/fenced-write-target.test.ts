/**
 * Where a fenced write lands (issue #25): a write is refused when it is not Automerge change data or depends on a
 * change the copy lacks (never left waiting in Automerge's queue, to land after its generation passed), applied whole
 * otherwise, and recognised when the copy already holds it (a write sent again after its answer was lost).
 */
import { next as A } from "@automerge/automerge";
import { Repo } from "@automerge/automerge-repo";
import { describe, expect, it } from "vitest";
import { fencedTargetOf } from "./fenced-write-target.js";

type Doc = { text: string; n?: number };

describe("a fenced write's target", () => {
  it("applies changes whose dependencies it holds, even on an older change, and then holds them", async () => {
    const repo = new Repo({ network: [] });
    const handle = repo.create<Doc>({ text: "a" });
    const older = handle.doc();
    handle.change((d) => void (d.text = "b"));
    // Prepared on a fork of an older state, under its own actor: depends on a change that is not a head any more.
    const fork = A.change(A.clone(older, { actor: "ab".repeat(16) }), (d) => void (d.n = 1));
    const changes = A.getChanges(older, fork);
    const target = fencedTargetOf(repo, handle);
    expect(target.holds(changes)).toBe(false);
    expect(target.refusalOf(changes)).toBeNull();
    target.apply(changes);
    expect(handle.doc()).toMatchObject({ text: "b", n: 1 });
    expect(target.holds(changes)).toBe(true);
    await target.persist();
    await repo.shutdown();
  });

  it("refuses changes that depend on what it lacks, and bytes that are not changes, applying nothing", async () => {
    const repo = new Repo({ network: [] });
    const handle = repo.create<Doc>({ text: "a" });
    let elsewhere = A.clone(handle.doc(), { actor: "cd".repeat(16) });
    elsewhere = A.change(elsewhere, (d) => void (d.text = "unseen"));
    const after = A.change(A.clone(elsewhere, { actor: "ef".repeat(16) }), (d) => void (d.n = 2));
    const target = fencedTargetOf(repo, handle);
    expect(target.refusalOf(A.getChanges(elsewhere, after))).toBe("missing-dependencies");
    expect(target.refusalOf([new Uint8Array([1, 2, 3])])).toBe("malformed");
    expect(target.holds([new Uint8Array([1, 2, 3])])).toBe(false);
    expect(handle.doc()).toEqual({ text: "a" });
    await repo.shutdown();
  });
});
