import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { collectSources, findLayeringViolations, importsOf, MAIN_IMPORTS } from "./layering.js";

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
    ["shared/x.ts", `import { readFile } from "fs/promises";`, "shared/ common code is environment-neutral"],
    ["shared/x.ts", `import { Worker } from "worker_threads";`, "shared/ common code is environment-neutral"],
    ["main/documents/x.ts", `import { createAppCore } from "../core/app-core.js";`, "main/documents/ may not import main/core/"],
    ["main/util/x.ts", `import { openLocalDb } from "../store/local-db.js";`, "main/util/ may not import main/store/"],
    ["main/store/x.ts", `import { DocumentService } from "../documents/document-service.js";`, "main/store/ may not import main/documents/"],
    ["main/sync/x.ts", `import { startMcp } from "../mcp/index.js";`, "main/sync/ may not import main/mcp/"],
    ["main/core/x.ts", `import { startHostServer } from "../host/host-server.js";`, "main/core/ may not import main/host/"],
    ["main/electron/ipc.ts", `import { IPC_INVOKE } from "../../preload/channels.js";`, "main/ imports only main/ and shared/"],
    ["main/mcp/x.ts", `import { startRelay } from "../../sync-relay/server.js";`, "main/ imports only main/ and shared/"],
  ])("refuses %s importing %s", (file, source, rule) => {
    const violations = findLayeringViolations(new Map([[file, source]]));
    expect(violations.map((v) => v.rule)).toContain(rule);
  });

  it("orders main/'s folders without a cycle: each imports only folders below it", () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (folder: string, path: string[]): void => {
      if (done.has(folder)) return;
      expect(visiting.has(folder), `cycle: ${[...path, folder].join(" -> ")}`).toBe(false);
      visiting.add(folder);
      for (const next of MAIN_IMPORTS[folder] ?? []) visit(next, [...path, folder]);
      visiting.delete(folder);
      done.add(folder);
    };
    for (const folder of Object.keys(MAIN_IMPORTS)) visit(folder, []);
    // The composition root is above every service, and no service may reach it.
    for (const [folder, allowed] of Object.entries(MAIN_IMPORTS)) {
      if (["main/core", "main/host", "main/electron", "main"].includes(folder)) continue;
      expect(allowed, folder).not.toContain("main/core");
    }
  });

  it("allows the sanctioned imports", () => {
    const files = new Map([
      ["main/core/app-core.ts", `import { DocumentService } from "../documents/document-service.js";\nimport { SharePolicy } from "../sync/share-policy.js";`],
      ["main/electron/main.ts", `import { createAppCore } from "../core/app-core.js";\nimport { IPC_INVOKE } from "../../shared/ipc-channels.js";`],
      ["main/documents/test-fixture.ts", `import { TypedEmitter } from "../util/typed-emitter.js";\nimport { startRelay } from "../../sync-relay/server.js";`],
      ["main/sync/relay-sync.test.ts", `import { createAppCore } from "../core/app-core.js";`],
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
