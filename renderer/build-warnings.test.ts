import { describe, expect, it } from "vitest";
import { isKnownBuildWarning, onBuildWarning } from "./build-warnings.js";

describe("build warnings", () => {
  it("leaves out only automerge-repo refs/ imports missing in Automerge 2.2.9; everything else passes", () => {
    const refs = { code: "IMPORT_IS_UNDEFINED", id: "/x/node_modules/@automerge/automerge-repo/dist/refs/ref.js", message: "getCursor" };
    expect(isKnownBuildWarning(refs)).toBe(true);
    const ours = { code: "IMPORT_IS_UNDEFINED", id: "/x/renderer/src/editor/plan-editor.ts", message: "x" };
    const other = { code: "CIRCULAR_DEPENDENCY", id: refs.id, message: "y" };
    const passed: unknown[] = [];
    for (const warning of [refs, ours, other]) onBuildWarning(warning, (w) => passed.push(w));
    expect(passed).toEqual([ours, other]);
  });
});
