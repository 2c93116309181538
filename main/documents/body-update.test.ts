/**
 * The whole-body writes (MCP's updateMarkdown, a version restore) through the document service use the bounded text
 * update: the body ends exactly as sent, and a teammate's concurrent edit on another line keeps its place.
 */
import { afterEach, describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import { VERSION_GROUP_GAP_MS } from "../util/limits.js";
import { makeFixture, type Fixture } from "./test-fixture.js";

let fx: Fixture;
afterEach(async () => {
  await fx?.close();
});

const TEAMMATE = "ab".repeat(16);

async function text(id: string): Promise<string> {
  return (await fx.service.getContent(id)).markdown;
}

/** The teammate's replica of the plan as it is now, with `edit` applied (merged in later, as sync would). */
async function teammateEdit(id: string, edit: (d: PlanDocument, body: string) => void): Promise<A.Doc<PlanDocument>> {
  const handle = await fx.repo.find<PlanDocument>(id as never);
  return A.change(A.clone(handle.doc(), { actor: TEAMMATE }), (d) => edit(d, handle.doc().text));
}

async function mergeIn(id: string, replica: A.Doc<PlanDocument>): Promise<void> {
  const handle = await fx.repo.find<PlanDocument>(id as never);
  handle.update((doc) => A.merge(doc, replica));
}

describe("whole-body writes", () => {
  it("updateMarkdown writes the body exactly and keeps a teammate's concurrent edit in its own line", async () => {
    fx = await makeFixture();
    const body = "# Plan 😀\n\nKeep that line.\n";
    const created = await fx.service.createDocument({ title: "T", markdown: body });
    // Typed just before the kept line's dot while the agent rewrites the heading and appends a line ending alike.
    const teammate = await teammateEdit(created.id, (d, now) => A.splice(d, ["text"], now.indexOf("."), 0, "!"));
    const sent = "# Plan 👍🏽\n\nKeep that line.\nNew line.\n";
    await fx.service.updateMarkdown(created.id, created.revision, sent, { agent: "Claude Code" });
    expect(await text(created.id)).toBe(sent);
    await mergeIn(created.id, teammate);
    expect(await text(created.id)).toBe("# Plan 👍🏽\n\nKeep that line!.\nNew line.\n");
  });

  it("updateMarkdown replaces a large body entirely and still keeps an edit in a line both versions share", async () => {
    fx = await makeFixture();
    const para = (word: string, i: number) => `${word} paragraph ${i}: ${word.repeat(8)}\n\n`;
    const before = "# Shared heading\n\n" + Array.from({ length: 400 }, (_, i) => para("old", i)).join("") + "## Shared end\n";
    const after = "# Shared heading\n\n" + Array.from({ length: 500 }, (_, i) => para("new", i)).join("") + "## Shared end\n";
    const created = await fx.service.createDocument({ title: "T", markdown: before });
    const teammate = await teammateEdit(created.id, (d, now) => A.splice(d, ["text"], now.indexOf("Shared end") + 10, 0, " (reviewed)"));
    await fx.service.updateMarkdown(created.id, created.revision, after);
    expect(await text(created.id)).toBe(after);
    await mergeIn(created.id, teammate);
    expect(await text(created.id)).toBe(after.replace("Shared end", "Shared end (reviewed)"));
  });

  it("restoreVersion as of the history the person saw keeps what a teammate wrote after it; without it, that is taken out", async () => {
    for (const withBasis of [true, false]) {
      fx = await makeFixture();
      const created = await fx.service.createDocument({ title: "T", markdown: "one\n" });
      fx.clock.now += VERSION_GROUP_GAP_MS;
      await fx.service.updateMarkdown(created.id, created.revision, "one\ntwo\n");
      const versions = await fx.service.listVersions(created.id);
      const oldest = versions.at(-1)!;
      // The person looks at the history (newest: "one two"), then a teammate appends before they confirm.
      await mergeIn(created.id, await teammateEdit(created.id, (d, now) => A.splice(d, ["text"], now.length, 0, "three\n")));
      fx.clock.now += VERSION_GROUP_GAP_MS;
      await fx.service.restoreVersion(created.id, oldest.id, withBasis ? versions[0].heads : undefined);
      expect(await text(created.id)).toBe(withBasis ? "one\nthree\n" : "one\n");
      await fx.close();
    }
    fx = await makeFixture();
  });

  it("restoreVersion refuses a basis that is not heads, or heads this device does not have, and changes nothing", async () => {
    fx = await makeFixture();
    const created = await fx.service.createDocument({ title: "T", markdown: "one\n" });
    fx.clock.now += VERSION_GROUP_GAP_MS;
    await fx.service.updateMarkdown(created.id, created.revision, "one\ntwo\n");
    const oldest = (await fx.service.listVersions(created.id)).at(-1)!;
    await expect(fx.service.restoreVersion(created.id, oldest.id, "nope" as never)).rejects.toMatchObject({ code: "invalid-input" });
    await expect(fx.service.restoreVersion(created.id, oldest.id, ["a".repeat(64)])).rejects.toMatchObject({ code: "invalid-input" });
    await expect(fx.service.restoreVersion(created.id, oldest.id, [])).rejects.toMatchObject({ code: "invalid-input" });
    expect(await text(created.id)).toBe("one\ntwo\n");
  });

  it("restoreVersion brings an old body back exactly, keeping a teammate's concurrent edit elsewhere", async () => {
    fx = await makeFixture();
    const old = "# Plan\n\nFirst idea 😀, in detail.\n\nClosing line.\n";
    const created = await fx.service.createDocument({ title: "T", markdown: old });
    fx.clock.now += VERSION_GROUP_GAP_MS;
    await fx.service.updateMarkdown(created.id, created.revision, "# Plan\n\nA different idea altogether.\n\nClosing line.\n");
    const oldest = (await fx.service.listVersions(created.id)).at(-1)!;
    const teammate = await teammateEdit(created.id, (d, now) => A.splice(d, ["text"], now.indexOf("Closing") + 7, 0, " and signing"));
    fx.clock.now += VERSION_GROUP_GAP_MS;
    await fx.service.restoreVersion(created.id, oldest.id);
    expect(await text(created.id)).toBe(old);
    await mergeIn(created.id, teammate);
    expect(await text(created.id)).toBe(old.replace("Closing", "Closing and signing"));
  });
});
