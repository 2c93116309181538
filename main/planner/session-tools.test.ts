/**
 * A new Planner session's tools (issue #26) against the fake GitHub: an unbound plan gets the plan tools only and
 * GitHub is not asked; a bound one gets the registry's repository tools too, pinned to the default branch's head when
 * the session was made (a later push is not seen), after following the binding by id (a rename is); a pin that cannot
 * be made leaves the repository tools out and says why, to the model and to the conversation; a session's repository
 * tools refuse once the plan is bound elsewhere; no two tools share a name.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { RepositoryBinding as PlanRepository } from "../../shared/schema/plan-document.js";
import { PLANETS } from "../../test-support/fake-github/fixtures.js";
import { REPOSITORY_TOOLS } from "../github/repository-tools/index.js";
import { startToolHarness, type ToolHarness } from "../github/repository-tools/tool-test-context.js";
import { createGitHubRest } from "../github/rest-client.js";
import type { PlannerTool } from "./copilot-runtime.js";
import { planTools } from "./plan-tools.js";
import { sessionTools, toolsFor } from "./session-tools.js";

let h: ToolHarness;
beforeAll(async () => {
  h = await startToolHarness();
});
afterAll(async () => {
  await h.fake.close();
});

const planTool = (name: string): PlannerTool<never> => ({ name, description: name, parameters: z.object({}).strict() as never, handler: async () => ({ read: name }) });
const PLAN = [planTool("read_plan"), planTool("edit_plan")];

/** The plan's binding as the app records it after choosing planets through GitHub. */
const planets = (): PlanRepository => {
  const r = h.fake.state.repoById(PLANETS.id)!;
  return { owner: r.owner, name: r.name, nodeId: r.nodeId, defaultBranch: r.defaultBranch, repositoryId: r.id, installationId: 71 };
};

const run = (tools: PlannerTool<never>[], name: string, args: unknown) => tools.find((t) => t.name === name)!.handler(args as never) as Promise<any>;

describe("a Planner session's tools", () => {
  it("gives an unbound plan the plan tools only, without asking GitHub", async () => {
    const before = h.fake.state.requests.length;
    const given = await sessionTools("plan-1", { plan: PLAN, repository: async () => null, rest: h.rest });
    expect(given).toEqual({ tools: PLAN, systemNote: null, notice: null });
    expect(h.fake.state.requests.length).toBe(before);
  });

  it("gives a bound plan the repository tools, pinned to the default branch's head when the session was made", async () => {
    const head = h.fake.state.repoById(PLANETS.id)!.branches.main;
    const given = await sessionTools("plan-1", { plan: PLAN, repository: async () => planets(), rest: h.rest });
    expect(given.tools.map((t) => t.name)).toEqual(["read_plan", "edit_plan", ...REPOSITORY_TOOLS.names]);
    expect(given.systemNote).toContain(`octo-org/planets`);
    expect(given.systemNote).toContain(`at commit ${head}, the head of its default branch main`);
    expect(given.notice).toBeNull();

    const moved = h.fake.state.push(PLANETS.id, "main", { "README.md": "# Planets\n\nRewritten after the session began.\n" }, "Rewrite the README");
    expect(moved).not.toBe(head);
    const read = await run(given.tools, "read_repository_file", { path: "README.md" });
    expect(read).toEqual({ ok: true, value: expect.objectContaining({ commitSha: head, content: "# Planets\n\nA catalogue of planets." }) });
    // A session made now pins the new head.
    const later = await sessionTools("plan-1", { plan: PLAN, repository: async () => planets(), rest: h.rest });
    expect(await run(later.tools, "read_repository_file", { path: "README.md" })).toEqual({ ok: true, value: expect.objectContaining({ commitSha: moved, content: "# Planets\n\nRewritten after the session began." }) });
    // Input the registry's schema refuses is answered as a refusal, not thrown.
    expect(await run(given.tools, "read_repository_file", { path: "README.md", owner: "other-org" })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
  });

  it("follows the binding by id when pinning: a renamed repository is read under its new name", async () => {
    const recorded = planets();
    h.fake.state.renameRepo(PLANETS.id, "octo-org", "worlds");
    try {
      const given = await sessionTools("plan-1", { plan: PLAN, repository: async () => recorded, rest: h.rest });
      expect(given.systemNote).toContain("octo-org/worlds");
      expect(await run(given.tools, "read_repository_file", { path: "src/index.ts" })).toMatchObject({ ok: true });
    } finally {
      h.fake.state.renameRepo(PLANETS.id, PLANETS.owner, PLANETS.name);
    }
  });

  it("leaves the repository tools out, and says why to the model and the conversation, when no pin can be made", async () => {
    const remove = h.fake.inject({ kind: "status", status: 502 }, { pathPrefix: "/repos/octo-org/planets/branches" });
    try {
      const given = await sessionTools("plan-1", { plan: PLAN, repository: async () => planets(), rest: h.rest });
      expect(given.tools).toEqual(PLAN);
      expect(given.systemNote).toBe(
        "This plan is bound to the GitHub repository octo-org/planets, but no repository tools are available in this session: GitHub could not be asked for the default branch's commit: GitHub answered with a server error (502). If you are asked about the repository, say that you cannot read it now.",
      );
      expect(given.notice).toBe("The Planner cannot read octo-org/planets in this session: GitHub could not be asked for the default branch's commit: GitHub answered with a server error (502). Send /new to start a session that tries again.");
    } finally {
      remove();
    }
    const signedOut = createGitHubRest({ apiBaseUrl: h.fake.url, token: () => null });
    expect((await sessionTools("plan-1", { plan: PLAN, repository: async () => planets(), rest: signedOut })).notice).toContain(": Nobody is signed in to GitHub on this app.");
    expect((await sessionTools("plan-1", { plan: PLAN, repository: async () => planets(), rest: null })).notice).toContain(": GitHub sign-in is not set up on this app.");
    const byNameOnly = await sessionTools("plan-1", { plan: PLAN, repository: async () => ({ owner: "octo-org", name: "planets" }), rest: h.rest });
    expect(byNameOnly.tools).toEqual(PLAN);
    expect(byNameOnly.notice).toMatch(/without it having been chosen through GitHub/);
    h.fake.state.setCollaborator(PLANETS.id, "alice", "none");
    try {
      expect((await sessionTools("plan-1", { plan: PLAN, repository: async () => planets(), rest: h.rest })).notice).toMatch(/does not show the repository to this sign-in any more/);
    } finally {
      h.fake.state.setCollaborator(PLANETS.id, "alice", "admin");
    }
  });

  it("refuses a session's repository call once the plan is bound to another repository or none, without asking GitHub", async () => {
    let bound: PlanRepository | null = planets();
    const given = await sessionTools("plan-1", { plan: PLAN, repository: async () => bound, rest: h.rest });
    expect(await run(given.tools, "read_repository_file", { path: "README.md" })).toMatchObject({ ok: true });
    bound = { ...planets(), nodeId: "R_kgDO00002002", repositoryId: 2002, owner: "other-org", name: "elsewhere" };
    const before = h.fake.state.requests.length;
    expect(await run(given.tools, "read_repository_file", { path: "README.md" })).toEqual({
      ok: false,
      error: { code: "out-of-scope", message: "The plan is no longer bound to octo-org/planets, which this session's repository tools read; send /new for a session with the plan's repository now." },
    });
    bound = null;
    expect(await run(given.tools, "repository_history", {})).toMatchObject({ ok: false, error: { code: "out-of-scope" } });
    expect(h.fake.state.requests.length).toBe(before);
  });

  it("never gives a session two tools of one name", () => {
    expect(() => toolsFor([...PLAN, planTool("read_repository_file")], { kind: "pinned", context: h.planets }, async () => true)).toThrow(/Two of the Planner's tools are named read_repository_file/);
    // The real plan tools and the registry's meet in no name.
    const real = planTools({ content: async () => ({ markdown: "", revision: "r", archived: false }), publish: async () => ({ ok: false, reason: "unused" }) });
    expect(toolsFor(real, { kind: "pinned", context: h.planets }, async () => true).tools.map((t) => t.name)).toEqual(["read_plan", "edit_plan", ...REPOSITORY_TOOLS.names]);
  });
});
