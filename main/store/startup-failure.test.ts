/**
 * A core that cannot start in its data folder says why in one sentence naming the folder and what to do (robustness
 * audit: it printed "file is not a database" or "EEXIST: file already exists, mkdir …"). Real failures from a real
 * createAppCore, not made-up errors; and a failed config write leaves no token-bearing temporary file behind.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describeStartupFailure } from "../../shared/node/startup-failure.js";
import { MCP_CONFIG_FILE } from "../mcp/config-file.js";
import { LOCAL_DB_FILE } from "./local-db.js";
import { tempDir } from "../sync/test-helpers.js";
import { createAppCore } from "../core/app-core.js";
import { describeCoreFailure } from "./startup-failure.js";

const dirs: Array<{ remove(): void }> = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

async function failureOf(dataDir: string): Promise<string> {
  try {
    const core = await createAppCore({ dataDir, mcpPort: 0 });
    await core.close();
  } catch (error) {
    return describeCoreFailure(error, dataDir);
  }
  throw new Error("the core started");
}

function scratch(): string {
  const dir = tempDir("chopin-startup-");
  dirs.push(dir);
  return dir.path;
}

describe("describeCoreFailure", () => {
  it("a data path that is a file", async () => {
    const file = join(scratch(), "not-a-folder");
    writeFileSync(file, "x");
    expect(await failureOf(file)).toBe(`The data path ${file} is a file, not a folder: give --data-dir a folder; it is created if missing.`);
  });

  it("a database file that is not SQLite: names the folder and says to keep a copy", async () => {
    const dir = scratch();
    writeFileSync(join(dir, LOCAL_DB_FILE), "this is not a database".repeat(100));
    expect(await failureOf(dir)).toBe(
      `Chopin's database (${LOCAL_DB_FILE}) in ${dir} is not a readable SQLite database. Keep a copy of the folder, and choose another folder with --data-dir to start afresh.`,
    );
  });

  it("a folder where the agent config file belongs, and no temporary file with the token left behind", async () => {
    const dir = scratch();
    mkdirSync(join(dir, MCP_CONFIG_FILE, "inside"), { recursive: true });
    const sentence = await failureOf(dir);
    expect(sentence).toBe(
      `${join(dir, MCP_CONFIG_FILE)} is a folder where a file belongs: move it out of ${dir}, or choose another folder with --data-dir.`,
    );
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("keeps an unknown failure's own message, and never throws on odd values", () => {
    const words = { dataOption: "--data-dir", portOption: "--port", hostOption: null, database: "the database" };
    expect(describeStartupFailure(new Error("boom"), words)).toBe("Unexpected failure: boom");
    for (const odd of [null, undefined, 5, "text", { code: 7 }]) expect(typeof describeStartupFailure(odd, words)).toBe("string");
    expect(describeStartupFailure(Object.assign(new Error("x"), { code: "EADDRNOTAVAIL", port: 9 }), words)).toBe(
      "Cannot listen on port 9: this machine has no such address.",
    );
  });
});
