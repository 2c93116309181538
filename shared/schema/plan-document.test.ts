/**
 * Edges of the repository binding's GitHub identity fields: both are optional (older bindings stay valid) and, when
 * present, must be positive whole numbers because they become part of request paths.
 */
import { describe, expect, it } from "vitest";
import { MAX_AGENT_CHAT_PERSON_CHARS, MAX_GITHUB_NODE_ID_CHARS, MAX_MCP_CLIENT_NAME_CHARS } from "../limits.js";
import { agentChatMarkSchema, provenanceSchema, repositoryBindingSchema } from "./plan-document.js";

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

describe("stored string bounds", () => {
  it("nodeId: accepts MAX_GITHUB_NODE_ID_CHARS characters, refuses one more", () => {
    expect(repositoryBindingSchema.safeParse({ ...base, nodeId: "R".repeat(MAX_GITHUB_NODE_ID_CHARS) }).success).toBe(true);
    expect(repositoryBindingSchema.safeParse({ ...base, nodeId: "R".repeat(MAX_GITHUB_NODE_ID_CHARS + 1) }).success).toBe(false);
  });

  it("provenance clientName: accepts MAX_MCP_CLIENT_NAME_CHARS characters, refuses one more", () => {
    expect(provenanceSchema.safeParse({ clientName: "c".repeat(MAX_MCP_CLIENT_NAME_CHARS) }).success).toBe(true);
    expect(provenanceSchema.safeParse({ clientName: "c".repeat(MAX_MCP_CLIENT_NAME_CHARS + 1) }).success).toBe(false);
  });
});

describe("agentChatMarkSchema: an agent chat's plan mark", () => {
  it("takes a person key up to MAX_AGENT_CHAT_PERSON_CHARS and refuses one character more, an empty one, or a bad agent id", () => {
    const agentId = "a".repeat(32);
    expect(agentChatMarkSchema.safeParse({ agentId, person: "x".repeat(MAX_AGENT_CHAT_PERSON_CHARS) }).success).toBe(true);
    expect(agentChatMarkSchema.safeParse({ agentId, person: "x".repeat(MAX_AGENT_CHAT_PERSON_CHARS + 1) }).success).toBe(false);
    expect(agentChatMarkSchema.safeParse({ agentId, person: "" }).success).toBe(false);
    expect(agentChatMarkSchema.safeParse({ agentId: "Not An Id", person: "github:alice" }).success).toBe(false);
  });
});
