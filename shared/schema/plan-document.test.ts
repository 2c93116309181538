/**
 * Edges of the repository binding's GitHub identity fields: both are optional (older bindings stay valid) and, when
 * present, must be positive whole numbers because they become part of request paths.
 */
import { describe, expect, it } from "vitest";
import { repositoryBindingSchema } from "./plan-document.js";

const base = { owner: "octo-org", name: "planets", nodeId: "R_kgDO00001001", defaultBranch: "main" };

describe("repositoryBindingSchema: repositoryId and installationId", () => {
  it("accepts a binding without them (owner/name only, or bound before they existed)", () => {
    expect(repositoryBindingSchema.safeParse({ owner: "octo-org", name: "planets" }).success).toBe(true);
    expect(repositoryBindingSchema.safeParse(base).success).toBe(true);
  });

  it("accepts the smallest and largest safe positive integers", () => {
    for (const n of [1, Number.MAX_SAFE_INTEGER]) {
      const parsed = repositoryBindingSchema.parse({ ...base, repositoryId: n, installationId: n });
      expect(parsed).toMatchObject({ repositoryId: n, installationId: n });
    }
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "1001"])("refuses %s for either field", (bad) => {
    expect(repositoryBindingSchema.safeParse({ ...base, repositoryId: bad }).success).toBe(false);
    expect(repositoryBindingSchema.safeParse({ ...base, installationId: bad }).success).toBe(false);
  });
});
