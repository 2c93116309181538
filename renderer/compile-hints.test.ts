import { describe, expect, it } from "vitest";
import { addCompileHints, COMPILE_HINT, compileHints } from "./compile-hints.js";

const chunk = (fileName: string, code: string, map: { mappings: string } | null = null) => ({
  type: "chunk" as const,
  fileName,
  code,
  map,
});
const asset = (fileName: string, source: string | Uint8Array) => ({ type: "asset" as const, fileName, source });

describe("compile hints", () => {
  it("puts the hint on the first line of every JavaScript chunk, once", () => {
    const a = chunk("assets/index-1.js", "var a=1;");
    const b = chunk("assets/lazy-2.js", `${COMPILE_HINT}\nvar b=2;`);
    addCompileHints({ [a.fileName]: a, [b.fileName]: b });
    addCompileHints({ [a.fileName]: a });
    expect(a.code).toBe(`${COMPILE_HINT}\nvar a=1;`);
    expect(b.code).toBe(`${COMPILE_HINT}\nvar b=2;`);
  });

  it("leaves assets and non-JavaScript chunks alone", () => {
    const css = asset("assets/index.css", "body{}");
    const other = chunk("assets/data.json", "{}");
    addCompileHints({ [css.fileName]: css, [other.fileName]: other });
    expect(css.source).toBe("body{}");
    expect(other.code).toBe("{}");
  });

  it("shifts the chunk's .map asset by the one added line", () => {
    const js = chunk("assets/index-1.js", "var a=1;\nvar b=2;", { mappings: "AAAA;AACA" });
    const map = asset("assets/index-1.js.map", new TextEncoder().encode(JSON.stringify({ version: 3, mappings: "AAAA;AACA" })));
    addCompileHints({ [js.fileName]: js, [map.fileName]: map });
    expect(JSON.parse(map.source as string)).toEqual({ version: 3, mappings: ";AAAA;AACA" });
    // The map is shifted in one place only, or lines would be off by two.
    expect(js.map?.mappings).toBe("AAAA;AACA");
  });

  it("shifts the map kept on the chunk when there is no .map asset", () => {
    const js = chunk("assets/index-1.js", "var a=1;", { mappings: "AAAA" });
    addCompileHints({ [js.fileName]: js });
    expect(js.map?.mappings).toBe(";AAAA");
  });

  it("runs for builds only, after the bundle is final", () => {
    const plugin = compileHints();
    expect(plugin.apply).toBe("build");
    expect(typeof plugin.generateBundle).toBe("function");
  });
});
