import { describe, expect, it } from "vitest";
import { dropUnreferencedWasm } from "./unused-wasm.js";

describe("dropUnreferencedWasm", () => {
  it("drops a wasm file no chunk names and keeps the one a chunk loads, and every other asset", () => {
    const bundle = {
      "assets/host.js": { type: "chunk" as const, fileName: "assets/host.js", code: 'fetch(new URL("automerge_wasm_bg-B_Jt.wasm", import.meta.url))' },
      "assets/automerge_wasm_bg-B_Jt.wasm": { type: "asset" as const, fileName: "assets/automerge_wasm_bg-B_Jt.wasm" },
      "assets/automerge_wasm_bg-BnEc.wasm": { type: "asset" as const, fileName: "assets/automerge_wasm_bg-BnEc.wasm" },
      "assets/unused.css": { type: "asset" as const, fileName: "assets/unused.css" },
    };
    expect(dropUnreferencedWasm(bundle)).toEqual(["assets/automerge_wasm_bg-BnEc.wasm"]);
    expect(Object.keys(bundle).sort()).toEqual(["assets/automerge_wasm_bg-B_Jt.wasm", "assets/host.js", "assets/unused.css"]);
  });
});
