import { describe, expect, it } from "vitest";
import type { ChopinError } from "../../shared/errors.js";
import { FaultRun } from "./fault-run.js";

const full = () => Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });

describe("FaultRun", () => {
  it("reports the first refusal of a run as 'storage-failure', not the next ones, and again after a write worked", () => {
    const said: ChopinError[] = [];
    const run = new FaultRun((failure) => said.push(failure));
    run.refused(full());
    run.refused(full());
    expect(said.map((f) => f.code)).toEqual(["storage-failure"]);
    expect(said[0].message).toContain("the disk is full");
    run.worked();
    run.refused(full());
    expect(said).toHaveLength(2);
  });
});
