import { afterEach, describe, expect, it } from "vitest";
import { MAX_REPOSITORY_NAME_CHARS, MAX_REPOSITORY_OWNER_CHARS } from "../../shared/limits.js";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import { makeFixture, type Fixture } from "./test-fixture.js";
import { waitFor } from "../../shared/wait-for.js";

let fx: Fixture;
afterEach(async () => {
  await fx?.close();
});

const PLANETS = { owner: "octo-org", name: "planets", nodeId: "R_kgDO00001001", defaultBranch: "main" };

describe("DocumentService.setRepository", () => {
  it("binds, survives a re-read, reports the change, and unbinds", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "Plan" });
    fx.changed.length = 0;
    fx.clock.now += 1000;
    const bound = await fx.service.setRepository(id, PLANETS);
    expect(bound.repository).toEqual(PLANETS);
    expect(bound.updatedAt).toBe(fx.clock.now);
    expect((await fx.service.getDocument(id)).repository).toEqual(PLANETS);
    const handle = await fx.repo.find<PlanDocument>(id as never);
    expect(Object.values(handle.doc().authors)).toContain("Ada");
    await waitFor(() => fx.changed.some((ids) => ids.includes(id)), "fx.changed.some((ids) => ids.includes(id))");

    const unbound = await fx.service.setRepository(id, null);
    expect(unbound.repository).toBeNull();
    expect((await fx.service.getDocument(id)).repository).toBeNull();
  });

  it("writes owner/name-only bindings without undefined fields, and a repeat is not a new change", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({});
    const first = await fx.service.setRepository(id, { owner: "alice", name: "notes", nodeId: undefined });
    expect(first.repository).toEqual({ owner: "alice", name: "notes" });
    const again = await fx.service.setRepository(id, { owner: "alice", name: "notes" });
    expect(again.revision).toBe(first.revision);
  });

  it("accepts names at their length bound and refuses one over, and other bad shapes", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({});
    const owner = "o".repeat(MAX_REPOSITORY_OWNER_CHARS);
    const name = "n".repeat(MAX_REPOSITORY_NAME_CHARS);
    await expect(fx.service.setRepository(id, { owner, name })).resolves.toMatchObject({ repository: { owner, name } });
    for (const bad of [
      { owner: owner + "o", name },
      { owner, name: name + "n" },
      { owner: "-bad", name: "x" },
      { owner: "ok", name: ".." },
      { owner: "ok", name: "a/b" },
      "octo-org/planets",
    ]) {
      await expect(fx.service.setRepository(id, bad as never)).rejects.toMatchObject({ code: "invalid-input" });
    }
    expect((await fx.service.getDocument(id)).repository).toEqual({ owner, name });
  });

  it("refuses archived documents and unknown ids", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({});
    await fx.service.archiveDocument(id);
    await expect(fx.service.setRepository(id, PLANETS)).rejects.toMatchObject({ code: "document-archived" });
    await expect(fx.service.setRepository("nope", PLANETS)).rejects.toMatchObject({ code: "invalid-input" });
  });
});
