/**
 * Each bound lives with the layer that owns it (issue #24): shared/limits.ts holds only bounds that cross a boundary
 * (used by shared code, or by more than one of main/, renderer/, sync-relay/, preload/), and a layer's own limits file
 * holds only bounds no other layer uses.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { collectSources } from "./layering.js";

const root = join(fileURLToPath(new URL("..", import.meta.url)));
const sources = collectSources(root);
const LAYERS = ["main", "renderer", "sync-relay", "shared", "preload"] as const;

/** The layers whose shipped code (not tests) names `constant`, besides the file that defines it. */
function usersOf(constant: string, definedIn: string): Set<string> {
  const users = new Set<string>();
  const word = new RegExp(`\\b${constant}\\b`);
  for (const [file, text] of sources) {
    if (file === definedIn || /\.test\.tsx?$/.test(file)) continue;
    const layer = LAYERS.find((name) => file.startsWith(`${name}/`));
    if (layer && word.test(text)) users.add(layer);
  }
  return users;
}

const exported = (file: string) => [...readFileSync(join(root, file), "utf8").matchAll(/^export const (\w+)/gm)].map((m) => m[1]!);

describe("where each bound lives", () => {
  it("shared/limits.ts holds only bounds that cross a boundary", () => {
    const local = exported("shared/limits.ts").filter((name) => {
      const users = usersOf(name, "shared/limits.ts");
      return !users.has("shared") && users.size < 2;
    });
    expect(local).toEqual([]);
  });

  it.each([
    ["main/util/limits.ts", "main"],
    ["sync-relay/limits.ts", "sync-relay"],
    ["renderer/src/limits.ts", "renderer"],
  ])("%s holds only bounds no other layer uses", (file, layer) => {
    const crossing = exported(file).filter((name) => [...usersOf(name, file)].some((user) => user !== layer));
    expect(crossing).toEqual([]);
  });
});
