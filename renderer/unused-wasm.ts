/**
 * Build plugin for the replica host's worker bundle: drops WebAssembly files no chunk of the bundle refers to.
 * Automerge's slim entry (which automerge-repo imports) reaches its "web" glue, whose default loader names the wasm
 * with `new URL(..., import.meta.url)`; the bundler emits that file even though the glue's code is shaken out and the
 * app loads the "bundler" build's wasm. The unused copy put ~1.8 MB more into every package.
 * What must stay true: a wasm file any chunk names is kept; nothing but ".wasm" assets is ever dropped.
 */
import type { Plugin } from "vite";

interface OutputLike {
  type: "chunk" | "asset";
  fileName: string;
  code?: string;
}

/** Removes, in place, the ".wasm" assets whose file name appears in no chunk's code; returns their names. */
export function dropUnreferencedWasm(bundle: Record<string, OutputLike>): string[] {
  const code = Object.values(bundle)
    .filter((output) => output.type === "chunk")
    .map((chunk) => chunk.code ?? "")
    .join("\n");
  const dropped: string[] = [];
  for (const [key, output] of Object.entries(bundle)) {
    if (output.type !== "asset" || !output.fileName.endsWith(".wasm")) continue;
    const name = output.fileName.split("/").pop()!;
    if (code.includes(name)) continue;
    delete bundle[key];
    dropped.push(output.fileName);
  }
  return dropped;
}

export function unusedWasm(): Plugin {
  return {
    name: "chopin-unused-wasm",
    apply: "build",
    generateBundle(_options, bundle) {
      dropUnreferencedWasm(bundle as unknown as Record<string, OutputLike>);
    },
  };
}
