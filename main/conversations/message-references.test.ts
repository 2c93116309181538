/**
 * What a message may reference: another document of the plan's repository (any when the plan has none), for a shared
 * plan only shared documents, never the plan itself, at most MAX_MESSAGE_REFERENCES; each refusal names the document.
 */
import { describe, expect, it } from "vitest";
import type { DocumentDetail } from "../../shared/api.js";
import { MAX_MESSAGE_REFERENCES } from "../../shared/limits.js";
import { resolveReferences } from "./message-references.js";

const repo = (name: string, nodeId?: string) => ({ owner: "acme", name, ...(nodeId ? { nodeId } : {}) });
const doc = (id: string, over: Partial<DocumentDetail> = {}): DocumentDetail => ({ id, title: `Doc ${id}`, revision: `r1-${id.padEnd(40, "0")}`, shared: false, repository: null, ...over }) as DocumentDetail;

function documents(...docs: DocumentDetail[]) {
  const byId = new Map(docs.map((d) => [d.id, d]));
  return {
    async getDocument(id: string) {
      const found = byId.get(id);
      if (!found) throw new Error("not found");
      return found;
    },
  };
}

describe("a message's references", () => {
  it("records each document's title and revision, once each, when the plan is bound to no repository", async () => {
    const plan = doc("plan");
    const refs = await resolveReferences(plan, ["a", "b", "a"], documents(plan, doc("a"), doc("b", { repository: repo("web") })));
    expect(refs).toEqual([
      { documentId: "a", title: "Doc a", revision: `r1-${"a".padEnd(40, "0")}` },
      { documentId: "b", title: "Doc b", revision: `r1-${"b".padEnd(40, "0")}` },
    ]);
  });

  it("takes only documents of the plan's repository when it is bound to one (by node id when both have it)", async () => {
    const plan = doc("plan", { repository: repo("web", "R_1") });
    const all = documents(plan, doc("same", { repository: repo("web", "R_1") }), doc("renamed", { repository: repo("site", "R_1") }), doc("other", { repository: repo("api", "R_2") }), doc("none"));
    expect(await resolveReferences(plan, ["same", "renamed"], all)).toHaveLength(2);
    await expect(resolveReferences(plan, ["other"], all)).rejects.toMatchObject({ code: "forbidden", message: expect.stringMatching(/“Doc other” is not a document of acme\/web/) });
    await expect(resolveReferences(plan, ["none"], all)).rejects.toMatchObject({ code: "forbidden" });
  });

  it("keeps a private document's title out of a shared plan's conversation", async () => {
    const plan = doc("plan", { shared: true });
    const all = documents(plan, doc("private"), doc("team", { shared: true }));
    expect(await resolveReferences(plan, ["team"], all)).toHaveLength(1);
    await expect(resolveReferences(plan, ["private"], all)).rejects.toMatchObject({ code: "forbidden", message: expect.stringMatching(/private to this device/) });
  });

  it("refuses the plan itself, a document not here, and more than the bound", async () => {
    const plan = doc("plan");
    const many = Array.from({ length: MAX_MESSAGE_REFERENCES + 1 }, (_, n) => doc(`d${n}`));
    const all = documents(plan, ...many);
    await expect(resolveReferences(plan, ["plan"], all)).rejects.toMatchObject({ code: "invalid-input", message: expect.stringMatching(/cannot reference the plan itself/) });
    await expect(resolveReferences(plan, ["ghost"], all)).rejects.toMatchObject({ code: "not-found", message: expect.stringMatching(/not on this device/) });
    expect(await resolveReferences(plan, many.slice(0, MAX_MESSAGE_REFERENCES).map((d) => d.id), all)).toHaveLength(MAX_MESSAGE_REFERENCES);
    await expect(resolveReferences(plan, many.map((d) => d.id), all)).rejects.toMatchObject({ code: "invalid-input", message: expect.stringMatching(new RegExp(`at most ${MAX_MESSAGE_REFERENCES}`)) });
  });
});
