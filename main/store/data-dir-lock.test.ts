/**
 * One core per data folder (storage audit: the app started twice on one folder ran two writers on one chopin.db,
 * each blind to the other's plans, and the second rewrote the first's mcp-config.json). The second start must refuse
 * at once with 'already-running', touch nothing, and leave the first working.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { ChopinError } from "../../shared/errors.js";
import { EXIT_ALREADY_RUNNING, EXIT_START_FAILED, startFailureExitCode } from "../host/exit-codes.js";
import { tempDir } from "../sync/test-helpers.js";
import { createAppCore } from "../core/app-core.js";
import { lockDataDir } from "./data-dir-lock.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function folder(): string {
  const dir = tempDir("chopin-lock-");
  cleanups.push(() => dir.remove());
  return dir.path;
}

describe("the data folder lock", () => {
  it("is held by one taker at a time and free again once released", () => {
    const dir = folder();
    const first = lockDataDir(dir);
    let refusal: unknown;
    try {
      lockDataDir(dir);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ChopinError);
    expect(refusal).toMatchObject({ code: "already-running", message: expect.stringContaining("Chopin is already running with this data folder") });
    expect((refusal as Error).message).toContain(dir);
    first.release();
    first.release();
    lockDataDir(dir).release();
  });

  it("refuses a second core on the same folder before it writes anything, and the first keeps working", async () => {
    const dir = folder();
    const first = await createAppCore({ dataDir: dir, mcpPort: 0 });
    cleanups.push(() => first.close());
    const plan = await first.api.createDocument({ title: "Mine", markdown: "kept" });
    const configBefore = readFileSync(first.mcp.configPath, "utf8");

    const second = createAppCore({ dataDir: dir, mcpPort: 0 });
    await expect(second).rejects.toMatchObject({ code: "already-running" });
    expect(startFailureExitCode(await second.catch((error: unknown) => error))).toBe(EXIT_ALREADY_RUNNING);

    // The first core's agent address is still the one published, and it still reads and writes.
    expect(readFileSync(first.mcp.configPath, "utf8")).toBe(configBefore);
    await first.api.renameDocument(plan.id, "Still mine");
    expect((await first.api.listDocuments({})).map((d) => d.title)).toEqual(["Still mine"]);

    // Once the first has closed, the folder opens again with everything in it.
    await first.close();
    const later = await createAppCore({ dataDir: dir, mcpPort: 0 });
    cleanups.push(() => later.close());
    expect((await later.api.getDocument(plan.id)).title).toBe("Still mine");
  });

  it("other start failures keep their own exit code", () => {
    expect(startFailureExitCode(new Error("EACCES"))).toBe(EXIT_START_FAILED);
    expect(startFailureExitCode(new ChopinError("not-found", "The UI is not built yet"))).toBe(EXIT_START_FAILED);
  });
});
