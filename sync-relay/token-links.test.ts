/**
 * The table of relay-token links (token-links.ts): a token user speaks for one GitHub login, decided by the primary
 * key (not the code), the same link again is idempotent, and the table's bound holds at its edge.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { ChopinError } from "../shared/errors.js";
import { RELAY_MAX_TOKEN_LINKS } from "./limits.js";
import { RELAY_TOKEN_LINK_TABLE_SQL, RelayTokenLinks } from "./token-links.js";

function table(max?: number): { db: Database.Database; links: RelayTokenLinks } {
  const db = new Database(":memory:");
  db.exec(RELAY_TOKEN_LINK_TABLE_SQL);
  return { db, links: new RelayTokenLinks(db, max === undefined ? {} : { max }) };
}

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    return error instanceof ChopinError ? error.code : "not typed";
  }
  return undefined;
};

describe("relay-token links", () => {
  it("links a token user to one login: the same link again changes nothing, another login is refused", () => {
    const { links } = table();
    expect(links.link("alice", "gh:alice")).toEqual({ link: { tokenUser: "alice", githubUser: "gh:alice" }, created: true });
    expect(links.link("alice", "gh:alice").created).toBe(false);
    expect(codeOf(() => links.link("alice", "gh:carol"))).toBe("idempotency-conflict");
    expect(links.linkOf("alice")).toBe("gh:alice");
    // Two handles may speak for one login (a person with two relay tokens).
    expect(links.link("alice-work", "gh:alice").created).toBe(true);
    expect(links.list()).toEqual([
      { tokenUser: "alice", githubUser: "gh:alice" },
      { tokenUser: "alice-work", githubUser: "gh:alice" },
    ]);
    expect(links.linkOf("bob")).toBeNull();
  });

  it("leaves the one-login rule to the database: a second row for a token user written straight into SQLite is refused", () => {
    const { db, links } = table();
    links.link("alice", "gh:alice");
    expect(() => db.prepare("INSERT INTO relay_token_links (token_user, github_user, linked_at) VALUES ('alice', 'gh:carol', 0)").run()).toThrow(/UNIQUE|PRIMARY/);
  });

  it("keeps at most its bound: the next new link is too-large, a held one still answers", () => {
    expect(RELAY_MAX_TOKEN_LINKS).toBe(10_000);
    const { links } = table(2);
    links.link("a", "gh:a");
    links.link("b", "gh:b");
    expect(codeOf(() => links.link("c", "gh:c"))).toBe("too-large");
    expect(links.link("b", "gh:b").created).toBe(false);
    expect(codeOf(() => links.link("b", "gh:other"))).toBe("idempotency-conflict");
    expect(links.list()).toHaveLength(2);
  });
});
