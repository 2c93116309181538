/**
 * The schema migrations run on real Automerge documents, inside A.change as the readers call them: a v0 plan draft and
 * a v0 workspace index come out valid for the current zod schemas (also when two replicas migrate concurrently), a
 * current document is left without a new change, and a newer or malformed one is refused with ChopinError
 * "invalid-document" and nothing written.
 */
import { next as A } from "@automerge/automerge";
import { describe, expect, it } from "vitest";
import { ChopinError } from "../errors.js";
import { canMigratePlan, migratePlanDocument, migrateWorkspaceIndex, planNeedsMigration } from "./migrations.js";
import { PLAN_DOCUMENT_SCHEMA_VERSION, planDocumentSchema, type PlanDocument } from "./plan-document.js";
import { WORKSPACE_INDEX_SCHEMA_VERSION, workspaceIndexSchema, type WorkspaceIndex } from "./workspace-index.js";

type Loose = Record<string, unknown>;
type Migrate = (doc: Loose) => void;

/** Runs `migrate` inside a change, as plan-reader.ts and workspace-index.ts do. */
function migrated<T>(doc: A.Doc<T>, migrate: Migrate): A.Doc<T> {
  return A.change(doc, (d) => migrate(d as unknown as Loose));
}

/** What `run` threw; fails the test when it threw nothing. */
function thrownBy(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal, nothing was thrown");
}

const currentPlan: PlanDocument = {
  schemaVersion: PLAN_DOCUMENT_SCHEMA_VERSION,
  kind: "plan",
  title: "Current",
  text: "# Plan\n",
  repository: { owner: "octo-org", name: "planets" },
  createdVia: "mcp",
  provenance: { clientName: "agent" },
  brief: null,
  archivedAt: null,
  createdAt: 10,
  updatedAt: 20,
  authors: { actor: "Ada" },
};

const currentIndex: WorkspaceIndex = {
  schemaVersion: WORKSPACE_INDEX_SCHEMA_VERSION,
  kind: "workspace-index",
  scope: "team",
  documents: { doc1: { title: "One", createdVia: "app", archivedAt: null, createdAt: 1, updatedAt: 2 } },
};

describe("migratePlanDocument", () => {
  it("lifts a v0 draft (body, no kind, no schemaVersion) to the current schema", () => {
    const draft = A.from<Loose>({ title: "Old plan", body: "written long ago", createdAt: 1234 });
    expect([planNeedsMigration(draft), canMigratePlan(draft)]).toEqual([true, true]);
    const doc = migrated(draft, migratePlanDocument);
    const plan = planDocumentSchema.parse(doc);
    expect(plan).toEqual({
      schemaVersion: PLAN_DOCUMENT_SCHEMA_VERSION,
      kind: "plan",
      title: "Old plan",
      text: "written long ago",
      repository: null,
      createdVia: "app",
      provenance: null,
      brief: null,
      archivedAt: null,
      createdAt: 1234,
      updatedAt: 1234,
      authors: {},
    });
    expect("body" in doc).toBe(false);
    expect(planNeedsMigration(doc)).toBe(false);
  });

  it("keeps a v0 draft's text when it already had one, and fills what a bare draft lacks", () => {
    const withText = migrated(A.from<Loose>({ title: "T", text: "kept", body: "dropped" }), migratePlanDocument);
    expect(planDocumentSchema.parse(withText).text).toBe("kept");
    const bare = planDocumentSchema.parse(migrated(A.from<Loose>({}), migratePlanDocument));
    expect([bare.title, bare.text, bare.createdAt, bare.updatedAt]).toEqual(["", "", 0, 0]);
  });

  it("converges when two replicas migrate the same v0 draft concurrently", () => {
    const draft = A.from<Loose>({ title: "Shared", body: "both migrate me", createdAt: 5 });
    const left = migrated(A.clone(draft), migratePlanDocument);
    const right = migrated(A.clone(draft, { actor: "ab".repeat(16) }), migratePlanDocument);
    const merged = A.merge(left, right);
    expect(planDocumentSchema.parse(merged)).toEqual(planDocumentSchema.parse(left));
    expect(planDocumentSchema.parse(merged).text).toBe("both migrate me");
  });

  it("passes a current document through unchanged: no new change, same contents", () => {
    const doc = A.from<Loose>({ ...currentPlan });
    expect(planNeedsMigration(doc)).toBe(false);
    const after = migrated(doc, migratePlanDocument);
    expect(A.getHeads(after)).toEqual(A.getHeads(doc));
    expect(planDocumentSchema.parse(after)).toEqual(currentPlan);
  });

  it("refuses a document from a newer schema with ChopinError invalid-document and writes nothing", () => {
    const newer = PLAN_DOCUMENT_SCHEMA_VERSION + 1;
    const doc = A.from<Loose>({ ...currentPlan, schemaVersion: newer, futureField: "x" });
    expect(canMigratePlan(doc)).toBe(false);
    let after = doc;
    const error = thrownBy(() => (after = migrated(doc, migratePlanDocument)));
    expect(error).toBeInstanceOf(ChopinError);
    expect(error).toMatchObject({
      code: "invalid-document",
      details: { schemaVersion: newer, supportedSchemaVersion: PLAN_DOCUMENT_SCHEMA_VERSION },
    });
    expect((error as ChopinError).message).toMatch(/newer version of Chopin/);
    expect(A.getHeads(after)).toEqual(A.getHeads(doc));
    expect(A.toJS(doc)).toEqual({ ...currentPlan, schemaVersion: newer, futureField: "x" });
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["an array", []],
    ["a number", 42],
    ["a string", "plan"],
    ["a negative schemaVersion", { schemaVersion: -1, title: "x" }],
    ["a fractional schemaVersion", { schemaVersion: 0.5, title: "x" }],
    ["a NaN schemaVersion", { schemaVersion: Number.NaN }],
    ["an infinite schemaVersion", { schemaVersion: Number.POSITIVE_INFINITY }],
    ["a string schemaVersion", { schemaVersion: "1", title: "x", body: "y" }],
    ["a null schemaVersion", { schemaVersion: null, title: "x", body: "y" }],
  ])("refuses %s with ChopinError invalid-document, nothing else", (_name, input) => {
    const error = thrownBy(() => migratePlanDocument(input as Loose));
    expect(error).toBeInstanceOf(ChopinError);
    expect((error as ChopinError).code).toBe("invalid-document");
  });

  it("leaves a malformed document's stored contents as they were (the refusal comes before any write)", () => {
    const doc = A.from<Loose>({ schemaVersion: "1", title: "x", body: "y" });
    let after = doc;
    expect(thrownBy(() => (after = migrated(doc, migratePlanDocument)))).toBeInstanceOf(ChopinError);
    expect(A.getHeads(after)).toEqual(A.getHeads(doc));
    expect(A.toJS(doc)).toEqual({ schemaVersion: "1", title: "x", body: "y" });
  });
});

describe("migrateWorkspaceIndex", () => {
  it("lifts a v0 index (no kind, no schemaVersion) to the current schema, keeping its entries and scope", () => {
    const empty = workspaceIndexSchema.parse(migrated(A.from<Loose>({}), migrateWorkspaceIndex));
    expect(empty).toEqual({ schemaVersion: WORKSPACE_INDEX_SCHEMA_VERSION, kind: "workspace-index", scope: "local", documents: {} });

    const { schemaVersion: _v, kind: _k, ...v0 } = currentIndex;
    const lifted = workspaceIndexSchema.parse(migrated(A.from<Loose>(v0), migrateWorkspaceIndex));
    expect(lifted).toEqual(currentIndex);
  });

  it("passes a current index through unchanged: no new change, same contents", () => {
    const doc = A.from<Loose>({ ...currentIndex });
    const after = migrated(doc, migrateWorkspaceIndex);
    expect(A.getHeads(after)).toEqual(A.getHeads(doc));
    expect(workspaceIndexSchema.parse(after)).toEqual(currentIndex);
  });

  it("refuses an index from a newer schema with ChopinError invalid-document and writes nothing", () => {
    const newer = WORKSPACE_INDEX_SCHEMA_VERSION + 1;
    const doc = A.from<Loose>({ ...currentIndex, schemaVersion: newer });
    let after = doc;
    const error = thrownBy(() => (after = migrated(doc, migrateWorkspaceIndex)));
    expect(error).toBeInstanceOf(ChopinError);
    expect(error).toMatchObject({
      code: "invalid-document",
      details: { schemaVersion: newer, supportedSchemaVersion: WORKSPACE_INDEX_SCHEMA_VERSION },
    });
    expect(A.getHeads(after)).toEqual(A.getHeads(doc));
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["an array", []],
    ["a string", "index"],
    ["a negative schemaVersion", { schemaVersion: -1 }],
    ["a fractional schemaVersion", { schemaVersion: 0.5 }],
    ["a string schemaVersion", { schemaVersion: "1", documents: {} }],
  ])("refuses %s with ChopinError invalid-document, nothing else", (_name, input) => {
    const error = thrownBy(() => migrateWorkspaceIndex(input as Loose));
    expect(error).toBeInstanceOf(ChopinError);
    expect((error as ChopinError).code).toBe("invalid-document");
  });
});
