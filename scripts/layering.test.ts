import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { collectSources, findLayeringViolations, importsOf } from "./layering.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

describe("layering rule", () => {
  it("holds for the whole repository", () => {
    const violations = findLayeringViolations(collectSources(root));
    expect(violations).toEqual([]);
  });

  it("reads every import form", () => {
    const src = `import a from "./a.js";\nimport type { B } from "../b.js";\nexport * from "./c.js";\nconst d = await import("./d.js");\nconst e = require("e");\nimport "./f.css";`;
    expect(importsOf(src).sort()).toEqual(["../b.js", "./a.js", "./c.js", "./d.js", "./f.css", "e"]);
  });

  it.each([
    ["shared/x.ts", `import { y } from "../main/y.js";`, "shared/ imports nothing of ours"],
    ["shared/x.ts", `import { readFileSync } from "node:fs";`, "shared/ common code is environment-neutral"],
    ["shared/x.ts", `import "./node/sqlite.js";`, "shared/ common code must not import shared/node/"],
    ["renderer/app.tsx", `import { core } from "../main/core.js";`, "renderer/ imports only renderer/ and shared/"],
    ["renderer/app.tsx", `import { a } from "../shared/node/sqlite.js";`, "renderer/ imports only renderer/ and shared/"],
    ["preload/index.ts", `import { core } from "../main/core.js";`, "preload/ imports only shared/"],
    ["sync-relay/server.ts", `import { core } from "../main/core.js";`, "sync-relay/ imports only shared/"],
    ["main/core.ts", `import { app } from "electron";`, "only main/electron/ and preload/ import electron"],
    ["renderer/app.tsx", `import { ipcRenderer } from "electron";`, "only main/electron/ and preload/ import electron"],
  ])("refuses %s importing %s", (file, source, rule) => {
    const violations = findLayeringViolations(new Map([[file, source]]));
    expect(violations.map((v) => v.rule)).toContain(rule);
  });

  it("allows the sanctioned imports", () => {
    const files = new Map([
      ["main/electron/window.ts", `import { BrowserWindow } from "electron";\nimport { x } from "../core/x.js";`],
      ["preload/index.ts", `import { contextBridge } from "electron";\nimport type { ChopinApi } from "../shared/api.js";`],
      ["sync-relay/server.ts", `import { SqliteStorageAdapter } from "../shared/node/sqlite-storage-adapter.js";`],
      ["renderer/app.tsx", `import type { ChopinApi } from "../shared/api.js";`],
      ["renderer/vite.config.ts", `import { fileURLToPath } from "node:url";`],
      ["renderer/src/bridge/socket.test.ts", `import { WebSocketServer } from "ws";`],
    ]);
    expect(findLayeringViolations(files)).toEqual([]);
  });
});
