import { describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import { writeTitle } from "./title-write.js";

describe("writing a title", () => {
  it("two renames made at once end as one of the two titles on both sides, never a merge of their characters", () => {
    const base = A.from({ title: "Team plan" } as unknown as PlanDocument);
    let alice = A.clone(base, { actor: "aaaaaaaa" });
    let bob = A.clone(base, { actor: "bbbbbbbb" });
    alice = A.change(alice, (d) => writeTitle(d, "Team plan — alice's name"));
    bob = A.change(bob, (d) => writeTitle(d, "Team plan — bob's name"));
    const atAlice = A.merge(A.clone(alice), bob);
    const atBob = A.merge(A.clone(bob), alice);
    expect(atAlice.title).toBe(atBob.title);
    expect(["Team plan — alice's name", "Team plan — bob's name"]).toContain(atAlice.title);
  });
});
