import { afterEach, describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import { MAX_VERSIONS_LISTED, VERSION_GROUP_GAP_MS, VERSION_MAX_SPAN_MS, VERSION_TOGETHER_MS } from "../util/limits.js";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import { makeFixture, type Fixture } from "./test-fixture.js";
import { groupVersions } from "./history.js";

let fx: Fixture;
afterEach(async () => {
  await fx?.close();
});

async function text(id: string) {
  return (await fx.service.getContent(id)).markdown;
}

/** A second author editing on their own replica (their own actor), merged in as sync would. */
function editAs(handle: { doc(): A.Doc<PlanDocument>; update(fn: (d: A.Doc<PlanDocument>) => A.Doc<PlanDocument>): void }, name: string, timeMs: number, fn: (d: PlanDocument) => void) {
  const replica = A.clone(handle.doc());
  const changed = A.change(replica, { time: Math.floor(timeMs / 1000) }, (d) => {
    fn(d);
    d.authors[A.getActorId(d)] = name;
  });
  handle.update((doc) => A.merge(doc, changed));
}

describe("version history", () => {
  it("an agent's writes are its own versions, credited to it, even within the person's grouping gap", async () => {
    fx = await makeFixture();
    const created = await fx.service.createDocumentWith({ title: "Plan", markdown: "Hi", createdVia: "mcp" }, { agent: "Claude Code" });
    const revision = (await fx.service.getDocument(created.id)).revision;
    await fx.service.updateMarkdown(created.id, revision, "Hi there", { agent: "Claude Code" });
    await fx.service.renameDocument(created.id, "Agent plan", { agent: "Codex" });
    await fx.service.archiveDocument(created.id);
    const versions = await fx.service.listVersions(created.id);
    expect(versions.map((v) => v.authors)).toEqual([["Ada"], ["Codex (agent)"], ["Claude Code (agent)"]]);
    expect(versions.map((v) => v.summary)).toEqual(["Archived", "Renamed to “Agent plan”", "Created, +8 characters"]);
  });

  it("three edits by two authors become versions with names, times and summaries; restore brings text back", async () => {
    fx = await makeFixture();
    const created = await fx.service.createDocument({ title: "Plan", markdown: "Hello" });
    const handle = await fx.repo.find<PlanDocument>(created.id as never);
    fx.clock.now += VERSION_GROUP_GAP_MS;
    await fx.service.updateMarkdown(created.id, (await fx.service.getDocument(created.id)).revision, "Hello world");
    fx.clock.now += VERSION_GROUP_GAP_MS;
    editAs(handle, "Grace", fx.clock.now, (d) => A.updateText(d, ["text"], "Hello"));
    fx.clock.now += VERSION_GROUP_GAP_MS;
    await fx.service.renameDocument(created.id, "Launch plan");

    const versions = await fx.service.listVersions(created.id);
    expect(versions.map((v) => v.authors)).toEqual([["Ada"], ["Grace"], ["Ada"], ["Ada"]]);
    expect(versions.map((v) => v.summary)).toEqual([
      "Renamed to “Launch plan”",
      "−6 characters",
      "+6 characters",
      "Created, +5 characters",
    ]);
    expect(versions[0].at).toBe(Math.floor(fx.clock.now / 1000) * 1000);
    const older = versions[2];
    expect(await fx.service.readVersion(created.id, older.id)).toEqual({ id: older.id, title: "Plan", markdown: "Hello world" });

    fx.clock.now += VERSION_GROUP_GAP_MS;
    const before = A.getAllChanges(handle.doc()).length;
    const restored = await fx.service.restoreVersion(created.id, older.id);
    expect(A.getAllChanges(handle.doc()).length).toBe(before + 1);
    expect(restored.title).toBe("Plan");
    expect(await text(created.id)).toBe("Hello world");
    // Nothing lost: the newer versions are still there to read.
    const after = await fx.service.listVersions(created.id);
    expect(after).toHaveLength(versions.length + 1);
    expect((await fx.service.readVersion(created.id, versions[0].id)).title).toBe("Launch plan");
  });

  it(`people typing together (within VERSION_TOGETHER_MS, ${VERSION_TOGETHER_MS / 1000} s) share one version naming both; a pause that long parts them`, async () => {
    fx = await makeFixture();
    const created = await fx.service.createDocument({ title: "Plan", markdown: "" });
    const handle = await fx.repo.find<PlanDocument>(created.id as never);
    fx.clock.now += VERSION_GROUP_GAP_MS;
    // Sixty keys, Ada's and Grace's alternating a second apart: one version, not sixty.
    for (let i = 0; i < 60; i += 1) {
      fx.clock.now += 1000;
      editAs(handle, i % 2 ? "Ada" : "Grace", fx.clock.now, (d) => A.splice(d, ["text"], 0, 0, i % 2 ? "a" : "g"));
    }
    let versions = await fx.service.listVersions(created.id);
    expect(versions.map((v) => v.authors)).toEqual([["Grace", "Ada"], ["Ada"]]);
    expect(versions[0]).toMatchObject({ changeCount: 60, summary: "+60 characters" });
    // Grace again after a pause just short of VERSION_TOGETHER_MS: still together.
    fx.clock.now += VERSION_TOGETHER_MS - 1000;
    editAs(handle, "Grace", fx.clock.now, (d) => A.splice(d, ["text"], 0, 0, "g"));
    versions = await fx.service.listVersions(created.id);
    expect(versions).toHaveLength(2);
    // Ada after a pause of VERSION_TOGETHER_MS: hers alone.
    fx.clock.now += VERSION_TOGETHER_MS;
    editAs(handle, "Ada", fx.clock.now, (d) => A.splice(d, ["text"], 0, 0, "a"));
    versions = await fx.service.listVersions(created.id);
    expect(versions.map((v) => v.authors)).toEqual([["Ada"], ["Grace", "Ada"], ["Ada"]]);
  });

  it("an agent writing while people type is a version of its own", async () => {
    fx = await makeFixture();
    const created = await fx.service.createDocument({ title: "Plan", markdown: "" });
    const handle = await fx.repo.find<PlanDocument>(created.id as never);
    fx.clock.now += VERSION_GROUP_GAP_MS;
    editAs(handle, "Grace", fx.clock.now, (d) => A.splice(d, ["text"], 0, 0, "g"));
    fx.clock.now += 1000;
    await fx.service.updateMarkdown(created.id, (await fx.service.getDocument(created.id)).revision, "g and more", { agent: "Codex" });
    fx.clock.now += 1000;
    editAs(handle, "Grace", fx.clock.now, (d) => A.splice(d, ["text"], 0, 0, "g"));
    const versions = await fx.service.listVersions(created.id);
    expect(versions.map((v) => v.authors)).toEqual([["Grace"], ["Codex (agent)"], ["Grace"], ["Ada"]]);
  });

  it("a restore is a version of its own, even within the grouping gap, and restoring the one before undoes it", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "T", markdown: "one" });
    fx.clock.now += VERSION_GROUP_GAP_MS;
    await fx.service.updateMarkdown(id, (await fx.service.getDocument(id)).revision, "one two");
    const [latest, first] = await fx.service.listVersions(id);
    fx.clock.now += 1000;
    await fx.service.restoreVersion(id, first.id);
    fx.clock.now += 1000;
    await fx.service.updateMarkdown(id, (await fx.service.getDocument(id)).revision, "one three");
    const versions = await fx.service.listVersions(id);
    expect(versions.map((v) => v.summary)).toEqual(["+6 characters", "Restored an earlier version, −4 characters", "+4 characters", "Created, +3 characters"]);
    expect(versions[2].id).toBe(latest.id);
    // The state just before the restore is still a version, so the restore can be undone.
    await fx.service.restoreVersion(id, latest.id);
    expect(await text(id)).toBe("one two");
  });

  it("groups changes by one author closer than VERSION_GROUP_GAP_MS; splits at the gap", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "T", markdown: "a" });
    fx.clock.now += VERSION_GROUP_GAP_MS - 1000;
    await fx.service.updateMarkdown(id, (await fx.service.getDocument(id)).revision, "ab");
    expect(await fx.service.listVersions(id)).toHaveLength(1);
    fx.clock.now += VERSION_GROUP_GAP_MS;
    await fx.service.updateMarkdown(id, (await fx.service.getDocument(id)).revision, "abc");
    const versions = await fx.service.listVersions(id);
    expect(versions).toHaveLength(2);
    expect(versions[1].changeCount).toBe(2);
    expect(versions[0].summary).toBe("+1 character");
  });

  it("a version spans at most VERSION_MAX_SPAN_MS of steady typing; summaries count characters in words", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "T", markdown: "" });
    // Edits every minute (under the gap): one version until it has lasted VERSION_MAX_SPAN_MS, then a new one.
    let markdown = "";
    const minute = 60 * 1000;
    expect(VERSION_GROUP_GAP_MS).toBeGreaterThan(minute);
    for (let t = minute; t < VERSION_MAX_SPAN_MS; t += minute) {
      fx.clock.now += minute;
      markdown += "a";
      await fx.service.updateMarkdown(id, (await fx.service.getDocument(id)).revision, markdown);
    }
    expect(await fx.service.listVersions(id)).toHaveLength(1);
    fx.clock.now += minute;
    await fx.service.updateMarkdown(id, (await fx.service.getDocument(id)).revision, markdown + "b");
    const versions = await fx.service.listVersions(id);
    expect(versions).toHaveLength(2);
    expect(versions[0].summary).toBe("+1 character");
    fx.clock.now += VERSION_GROUP_GAP_MS;
    await fx.service.updateMarkdown(id, (await fx.service.getDocument(id)).revision, "x" + markdown);
    expect((await fx.service.listVersions(id))[0].summary).toBe("+1 −1 characters");
  });

  it("restoring what the document already holds makes no change and no history entry", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "T", markdown: "one" });
    const latest = (await fx.service.listVersions(id))[0];
    const before = (await fx.service.getDocument(id)).revision;
    const detail = await fx.service.restoreVersion(id, latest.id);
    expect(detail.revision).toBe(before);
    expect(await fx.service.listVersions(id)).toHaveLength(1);
  });

  it("a concurrent edit made after a restore is not lost", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "T", markdown: "one\n" });
    const handle = await fx.repo.find<PlanDocument>(id as never);
    fx.clock.now += VERSION_GROUP_GAP_MS;
    await fx.service.updateMarkdown(id, (await fx.service.getDocument(id)).revision, "one\ntwo\n");
    const first = (await fx.service.listVersions(id)).at(-1)!;
    // A teammate's replica forks before the restore and appends a line.
    const theirs = A.change(A.clone(handle.doc()), (d) => A.splice(d, ["text"], 0, 0, "zero\n"));
    await fx.service.restoreVersion(id, first.id);
    expect(await text(id)).toBe("one\n");
    handle.update((doc) => A.merge(doc, theirs));
    expect(await text(id)).toBe("zero\none\n");
  });

  it("lists at most MAX_VERSIONS_LISTED, newest first, and always the first (Created)", async () => {
    fx = await makeFixture();
    const created = await fx.service.createDocument({ title: "T", markdown: "" });
    const handle = await fx.repo.find<PlanDocument>(created.id as never);
    // Two replicas taking turns, further apart than typing together, so every change is its own version
    // (MAX_VERSIONS_LISTED + 1 in all).
    let ada = A.clone(handle.doc());
    let grace = A.clone(handle.doc());
    const apart = Math.ceil(VERSION_TOGETHER_MS / 1000);
    const start = Math.floor(fx.clock.now / 1000) + apart;
    for (let i = 0; i < MAX_VERSIONS_LISTED; i += 1) {
      const edit = (d: PlanDocument, name: string) => {
        A.splice(d, ["text"], 0, 0, "x");
        d.authors[A.getActorId(d)] = name;
      };
      if (i % 2) {
        ada = A.change(ada, { time: start + i * apart }, (d) => edit(d, "Ada"));
        grace = A.merge(grace, ada);
      } else {
        grace = A.change(grace, { time: start + i * apart }, (d) => edit(d, "Grace"));
        ada = A.merge(ada, grace);
      }
    }
    handle.update((doc) => A.merge(doc, ada));
    expect(groupVersions(handle.doc())).toHaveLength(MAX_VERSIONS_LISTED + 1);
    const listed = await fx.service.listVersions(created.id);
    expect(listed).toHaveLength(MAX_VERSIONS_LISTED);
    expect(listed[0].at).toBeGreaterThanOrEqual(listed.at(-1)!.at);
    const all = groupVersions(handle.doc());
    // The oldest listed is the plan as made; the one after it is what the bound leaves out.
    expect(listed.at(-1)!.summary).toMatch(/^Created/);
    expect(listed.at(-1)!.id).toBe(all[0].id);
    expect(listed.some((v) => v.id === all[1].id)).toBe(false);
    expect(listed.at(-2)!.id).toBe(all[2].id);
  }, 60_000);

  it("gives every replica the same versions after concurrent edits, whatever order each applied them in", () => {
    const base = A.change(A.from<PlanDocument>({ text: "", title: "T", authors: {} } as unknown as PlanDocument), (d) => {
      d.authors[A.getActorId(d)] = "Base";
    });
    let ada = A.clone(base, { actor: "aa".repeat(16) });
    let bo = A.clone(base, { actor: "bb".repeat(16) });
    for (let i = 0; i < 3; i += 1) {
      ada = A.change(ada, { time: 1_000 + i * 40 }, (d) => {
        A.splice(d, ["text"], 0, 0, "a");
        d.authors[A.getActorId(d)] = "Ada";
      });
      bo = A.change(bo, { time: 1_020 + i * 40 }, (d) => {
        A.splice(d, ["text"], 0, 0, "b");
        d.authors[A.getActorId(d)] = "Bo";
      });
    }
    // Each device applies its own changes first, then the other's.
    const atAda = A.merge(A.clone(ada), bo);
    const atBo = A.merge(A.clone(bo), ada);
    const describe = (doc: A.Doc<PlanDocument>) => groupVersions(doc).map((v) => `${v.id} ${v.authors.join()} ${v.changeCount}`);
    expect(describe(atAda)).toEqual(describe(atBo));
    expect(describe(atAda).length).toBeGreaterThan(1);
  });

  it("a display-name change relabels no earlier version; restore and agent credits are unchanged", async () => {
    fx = await makeFixture();
    fx.name.value = "Alice";
    const { id } = await fx.service.createDocument({ title: "Plan", markdown: "one" });
    fx.clock.now += VERSION_GROUP_GAP_MS;
    await fx.service.updateMarkdown(id, (await fx.service.getDocument(id)).revision, "one two", { agent: "Codex" });
    fx.clock.now += VERSION_GROUP_GAP_MS;
    fx.name.value = "Al";
    await fx.service.updateMarkdown(id, (await fx.service.getDocument(id)).revision, "one two three");
    // Within the grouping gap, but not typing together: a new name is a new version.
    fx.clock.now += VERSION_TOGETHER_MS;
    fx.name.value = "Alfie";
    await fx.service.renameDocument(id, "Launch plan");
    const versions = await fx.service.listVersions(id);
    expect(versions.map((v) => v.authors)).toEqual([["Alfie"], ["Al"], ["Codex (agent)"], ["Alice"]]);
    expect(versions.map((v) => v.summary)).toEqual(["Renamed to “Launch plan”", "+6 characters", "+4 characters", "Created, +3 characters"]);

    fx.clock.now += VERSION_GROUP_GAP_MS;
    const restored = await fx.service.restoreVersion(id, versions[3].id);
    expect(restored.title).toBe("Plan");
    expect(await text(id)).toBe("one");
    const after = await fx.service.listVersions(id);
    expect(after.map((v) => v.authors)).toEqual([["Alfie"], ...versions.map((v) => v.authors)]);
    expect(after.slice(1).map((v) => v.id)).toEqual(versions.map((v) => v.id));
    expect(await fx.service.readVersion(id, versions[1].id)).toMatchObject({ title: "Plan", markdown: "one two three" });
  });

  it("typing in a window follows the same rule: the name it records right after an edit names that edit", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "T", markdown: "a" });
    const handle = await fx.repo.find<PlanDocument>(id as never);
    // A window's replica (its own actor), recording the name as renderer/src/editor/edit-metadata.ts does: the edit
    // first, then, only when the recorded name is stale, a change of its own.
    let window = A.clone(handle.doc());
    const type = (name: string, insert: string) => {
      window = A.merge(window, handle.doc());
      window = A.change(window, { time: Math.floor(fx.clock.now / 1000) }, (d) => A.splice(d, ["text"], d.text.length, 0, insert));
      if (window.authors[A.getActorId(window)] !== name) {
        window = A.change(window, { time: Math.floor(fx.clock.now / 1000) }, (d) => {
          d.authors[A.getActorId(d)] = name;
          d.updatedAt = fx.clock.now;
        });
      }
      handle.update((doc) => A.merge(doc, window));
    };
    fx.clock.now += VERSION_GROUP_GAP_MS;
    type("Grace", "b");
    type("Grace", "c");
    fx.clock.now += VERSION_GROUP_GAP_MS;
    type("Grace H.", "d");
    type("Grace H.", "e");
    const versions = await fx.service.listVersions(id);
    expect(versions.map((v) => [v.authors, v.summary, v.changeCount])).toEqual([
      [["Grace H."], "+2 characters", 3],
      [["Grace"], "+2 characters", 3],
      [["Ada"], "Created, +1 character", 1],
    ]);
  });

  it("a change made before its actor recorded any name keeps the fallback: the actor's current name, else Unknown", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "T", markdown: "a" });
    const handle = await fx.repo.find<PlanDocument>(id as never);
    const replica = (insert: string, name?: string) => {
      const changed = A.change(A.clone(handle.doc()), { time: Math.floor(fx.clock.now / 1000) }, (d) => {
        A.splice(d, ["text"], 0, 0, insert);
        if (name) d.authors[A.getActorId(d)] = name;
      });
      handle.update((doc) => A.merge(doc, changed));
      return changed;
    };
    fx.clock.now += VERSION_GROUP_GAP_MS;
    replica("x");
    fx.clock.now += VERSION_GROUP_GAP_MS;
    let grace = replica("y");
    fx.clock.now += VERSION_GROUP_GAP_MS;
    grace = A.change(grace, { time: Math.floor(fx.clock.now / 1000) }, (d) => {
      A.splice(d, ["text"], 0, 0, "z");
      d.authors[A.getActorId(d)] = "Grace";
    });
    handle.update((doc) => A.merge(doc, grace));
    const versions = await fx.service.listVersions(id);
    expect(versions.map((v) => v.authors)).toEqual([["Grace"], ["Grace"], ["Unknown author"], ["Ada"]]);
  });

  it("a version id whose version grew since it was listed still names the point it named: viewed and restored as listed", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "T", markdown: "first" });
    const [listed] = await fx.service.listVersions(id);
    // The same author keeps writing within the grouping gap: the version's end, and so its id, moves on.
    fx.clock.now += 1000;
    await fx.service.updateMarkdown(id, (await fx.service.getDocument(id)).revision, "first second");
    expect((await fx.service.listVersions(id)).map((v) => v.id)).not.toContain(listed.id);
    expect((await fx.service.readVersion(id, listed.id)).markdown).toBe("first");
    expect((await fx.service.restoreVersion(id, listed.id)).revision).toBeTruthy();
    expect((await fx.service.getContent(id)).markdown).toBe("first");
  });

  it("refuses an unknown version id", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({});
    // Well formed, but no point of this history.
    await expect(fx.service.readVersion(id, `v1-${"0".repeat(40)}`)).rejects.toMatchObject({ code: "not-found" });
    // Not the shape of a version id at all: refused before the history is walked.
    await expect(fx.service.readVersion(id, "v1-nope")).rejects.toMatchObject({ code: "invalid-input", message: expect.stringMatching(/not a version id/) });
    await expect(fx.service.readVersion(id, "x".repeat(1_000_000))).rejects.toMatchObject({ code: "invalid-input" });
    await expect(fx.service.restoreVersion(id, 5 as never)).rejects.toMatchObject({ code: "invalid-input" });
  });
});
