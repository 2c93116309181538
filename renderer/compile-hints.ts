/**
 * Build plugin: marks the page's JavaScript for eager compilation with V8's explicit compile hint, the file-level
 * magic comment `//# allFunctionsCalledOnLoad` (Chromium 136+, so Electron 45 and the Chromium host mode runs in).
 * Without it V8 compiles each function lazily at its first call, on the main thread: opening the first document
 * spent ~40 of ~90 ms compiling CodeMirror and the Markdown parser, and the click itself ~8 ms compiling React
 * code. With it that compiling happens on a background thread while the script streams in at page load (page
 * load to the document list was unchanged in our runs).
 * What must stay true: the comment is the file's first line (where V8 looks for it), it is added once, only to
 * JavaScript chunks, and a source map, when there is one, still lines up (the added line maps to nothing).
 */
import type { Plugin } from "vite";

export const COMPILE_HINT = "//# allFunctionsCalledOnLoad";

interface ChunkLike {
  type: "chunk";
  fileName: string;
  code: string;
  map?: { mappings: string } | null;
}
interface AssetLike {
  type: "asset";
  fileName: string;
  source: string | Uint8Array;
}
type Output = ChunkLike | AssetLike;

/** Source-map mappings for the same code with one unmapped line in front (";" ends a generated line). */
export function shiftMappings(mappings: string): string {
  return `;${mappings}`;
}

/**
 * Adds the hint to each JavaScript chunk of a bundle; a chunk that already starts with it is left alone. The chunk's
 * source map is shifted where the bundler keeps it: as a ".map" asset beside the chunk (Rolldown) or on the chunk.
 */
export function addCompileHints(bundle: Record<string, Output>): void {
  for (const chunk of Object.values(bundle)) {
    if (chunk.type !== "chunk" || !chunk.fileName.endsWith(".js") || chunk.code.startsWith(COMPILE_HINT)) continue;
    chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
    const mapAsset = bundle[`${chunk.fileName}.map`];
    if (mapAsset?.type === "asset") {
      const text = typeof mapAsset.source === "string" ? mapAsset.source : new TextDecoder().decode(mapAsset.source);
      const map = JSON.parse(text) as { mappings: string };
      map.mappings = shiftMappings(map.mappings);
      mapAsset.source = JSON.stringify(map);
    } else if (chunk.map) {
      chunk.map.mappings = shiftMappings(chunk.map.mappings);
    }
  }
}

export function compileHints(): Plugin {
  return {
    name: "chopin:compile-hints",
    apply: "build",
    // After minification (which drops comments), before the files are written.
    generateBundle(_options, bundle) {
      addCompileHints(bundle as unknown as Record<string, Output>);
    },
  };
}
