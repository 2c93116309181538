/**
 * .ci/ensure-node.sh (CI's first step) against a fake node, npm and apt-get on an otherwise empty PATH: accepts Node
 * at exactly the bound (20.19) with npm without touching apt, installs Debian's nodejs + npm when node is older,
 * missing or without npm, and fails with one sentence naming what it found and what it needs when that does not help.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const script = join(root, ".ci", "ensure-node.sh");
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

function executable(path: string, body: string): void {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

/**
 * Runs the script with only fakes on PATH. `node`: the version the fake node reports (null: no node); `npm`: whether
 * npm exists; `installs`: the node version apt-get "installs" together with npm (null: the install changes nothing).
 */
function run(options: { node: string | null; npm: boolean; installs: string | null }) {
  const bin = mkdtempSync(join(tmpdir(), "chopin-ci-node-"));
  dirs.push(bin);
  const log = join(bin, "apt.log");
  if (options.node !== null) executable(join(bin, "node"), `echo ${options.node}`);
  if (options.npm) executable(join(bin, "npm"), "echo 11.0.0");
  const install =
    options.installs === null
      ? ""
      : `printf '#!/bin/sh\\necho ${options.installs}\\n' > "${bin}/node"; printf '#!/bin/sh\\necho 9.2.0\\n' > "${bin}/npm"; /bin/chmod 755 "${bin}/node" "${bin}/npm"`;
  executable(join(bin, "apt-get"), `echo "$*" >> "${log}"\ncase "$1" in install) ${install || ":"} ;; esac`);
  const result = spawnSync("/bin/bash", [script], { env: { PATH: bin }, encoding: "utf8" });
  const apt = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
  return { status: result.status, stderr: result.stderr, apt };
}

describe(".ci/ensure-node.sh", () => {
  it("requires the same Node as package.json's engines", () => {
    const engines = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).engines.node;
    expect(engines).toBe(">=20.19");
    const source = readFileSync(script, "utf8");
    expect(source).toMatch(/^NODE_NEEDED_MAJOR=20$/m);
    expect(source).toMatch(/^NODE_NEEDED_MINOR=19$/m);
  });

  it("accepts Node 20.19.0 with npm (the bound) and newer majors, without apt-get", () => {
    for (const node of ["20.19.0", "20.20.2", "22.1.0"]) {
      const result = run({ node, npm: true, installs: null });
      expect(result.status, node).toBe(0);
      expect(result.apt, node).toEqual([]);
    }
  });

  it("installs Debian's nodejs and npm when node is one minor below the bound, and passes when that brings a newer one", () => {
    const result = run({ node: "20.18.3", npm: true, installs: "20.19.2" });
    expect(result.status).toBe(0);
    expect(result.apt).toEqual(["update -qq", "install -y -qq nodejs npm"]);
  });

  it("installs them when node or npm is missing", () => {
    expect(run({ node: null, npm: false, installs: "22.1.0" })).toMatchObject({ status: 0, apt: ["update -qq", "install -y -qq nodejs npm"] });
    expect(run({ node: "20.19.0", npm: false, installs: "20.19.0" })).toMatchObject({ status: 0, apt: ["update -qq", "install -y -qq nodejs npm"] });
  });

  it("fails with one sentence naming the version found and the one needed when the install does not help", () => {
    const old = run({ node: "18.20.4", npm: true, installs: null });
    expect(old.status).toBe(1);
    expect(old.apt).toEqual(["update -qq", "install -y -qq nodejs npm"]);
    const last = old.stderr.trim().split("\n").at(-1)!;
    expect(last).toMatch(/^CI needs Node\.js >= 20\.19 with npm, but found 18\.20\.4 even after installing Debian's nodejs and npm;/);

    const none = run({ node: null, npm: false, installs: null });
    expect(none.status).toBe(1);
    expect(none.stderr).toContain("but found none without npm");
    const noNpm = run({ node: "20.19.0", npm: false, installs: null });
    expect(noNpm.status).toBe(1);
    expect(noNpm.stderr).toContain("but found 20.19.0 without npm");
  });
});
