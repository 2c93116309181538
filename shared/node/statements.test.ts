import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { statement } from "./statements.js";

describe("statement", () => {
  it("prepares each SQL text once per connection and reuses it", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)");
    const insert = statement(db, "INSERT INTO t (k, v) VALUES (?, ?)");
    expect(statement(db, "INSERT INTO t (k, v) VALUES (?, ?)")).toBe(insert);
    insert.run("a", 1);
    statement(db, "INSERT INTO t (k, v) VALUES (?, ?)").run("b", 2);
    expect(statement(db, "SELECT count(*) AS n FROM t").get()).toEqual({ n: 2 });
    db.close();
  });

  it("never hands one connection's statement to another", () => {
    const one = new Database(":memory:");
    const two = new Database(":memory:");
    for (const db of [one, two]) db.exec("CREATE TABLE t (v INTEGER)");
    statement(one, "INSERT INTO t (v) VALUES (?)").run(1);
    expect(statement(two, "INSERT INTO t (v) VALUES (?)")).not.toBe(statement(one, "INSERT INTO t (v) VALUES (?)"));
    expect(statement(two, "SELECT count(*) AS n FROM t").get()).toEqual({ n: 0 });
    one.close();
    two.close();
  });
});
