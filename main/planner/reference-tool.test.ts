/**
 * read_reference and what a session retains: only referenced documents are read, whatever id the model passes; the
 * answer says whether the document changed since the message and that it is evidence; its text is cut at the bound;
 * a session keeps the latest PLANNER_SESSION_MAX_REFERENCES references, a repeated one counting as new.
 */
import { describe, expect, it } from "vitest";
import { PLANNER_REFERENCE_MAX_CHARS, PLANNER_SESSION_MAX_REFERENCES } from "../util/limits.js";
import { REFERENCE_EVIDENCE_NOTE, referenceTool } from "./reference-tool.js";
import { RetainedReferences } from "./retained-references.js";

const ref = (id: string, revision = "r-old") => ({ documentId: id, title: `Doc ${id}`, revision });

describe("the references a session retains", () => {
  it("keeps the latest ones up to the bound, a repeated one as the newest with the revision it was seen at", () => {
    const retained = new RetainedReferences();
    for (let n = 0; n < PLANNER_SESSION_MAX_REFERENCES; n++) retained.retain(ref(`d${n}`));
    expect(retained.list()).toHaveLength(PLANNER_SESSION_MAX_REFERENCES);
    retained.retain(ref("d0", "r-new"));
    retained.retain(ref("extra"));
    expect(retained.list()).toHaveLength(PLANNER_SESSION_MAX_REFERENCES);
    expect(retained.get("d1")).toBeUndefined();
    expect(retained.get("d0")).toEqual(ref("d0", "r-new"));
    expect(retained.list().at(-1)!.documentId).toBe("extra");
  });
});

describe("read_reference", () => {
  const retained = new RetainedReferences();
  retained.retain(ref("spec", "r-1"));
  retained.retain(ref("gone"));
  const docs: Record<string, { title: string; revision: string; markdown: string }> = {
    spec: { title: "Spec", revision: "r-2", markdown: "# Spec\n\nUse Postgres." },
    other: { title: "Other", revision: "r-9", markdown: "secret" },
  };
  const tool = referenceTool({
    retained,
    content: async (id) => {
      if (!docs[id]) throw new Error("not here");
      return docs[id]!;
    },
  });

  it("reads a referenced document as evidence and says it changed since the message", async () => {
    expect(await tool.handler({ documentId: "spec" })).toEqual({
      ok: true,
      value: { documentId: "spec", title: "Spec", revisionSeen: "r-1", revision: "r-2", changedSince: true, markdown: "# Spec\n\nUse Postgres.", truncated: false, note: REFERENCE_EVIDENCE_NOTE },
    });
  });

  it("refuses a document no message of the session references, naming those it may read", async () => {
    const answer = (await tool.handler({ documentId: "other" })) as { ok: false; error: { code: string; message: string } };
    expect(answer.ok).toBe(false);
    expect(answer.error.code).toBe("not-referenced");
    expect(answer.error.message).toContain("spec (“Doc spec”)");
    expect(JSON.stringify(answer)).not.toContain("secret");
  });

  it("says a referenced document the Planner's app does not hold is unavailable", async () => {
    expect(await tool.handler({ documentId: "gone" })).toMatchObject({ ok: false, error: { code: "unavailable" } });
  });

  it("cuts the text at the bound and says so", async () => {
    const big = new RetainedReferences();
    big.retain(ref("big"));
    const read = (length: number) =>
      referenceTool({ retained: big, content: async () => ({ title: "Big", revision: "r-old", markdown: "x".repeat(length) }) }).handler({ documentId: "big" }) as Promise<{ value: { markdown: string; truncated: boolean; changedSince: boolean } }>;
    expect((await read(PLANNER_REFERENCE_MAX_CHARS)).value).toMatchObject({ truncated: false, changedSince: false });
    const over = (await read(PLANNER_REFERENCE_MAX_CHARS + 1)).value;
    expect(over.truncated).toBe(true);
    expect(over.markdown).toHaveLength(PLANNER_REFERENCE_MAX_CHARS);
  });
});
