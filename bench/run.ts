/**
 * `npm run bench [-- relay|cold-open|keystroke|mcp|app-hop|planner|agent-chat ...] [--quick]`: runs the chosen suites (all by default) one after
 * another, prints a table per suite and writes the whole run as JSON to bench/results/<timestamp>.json.
 * Benchmarks print figures and ratios against baselines measured in the same run; they never assert timings and are
 * not part of `npm test`. A suite that throws is reported and the next one still runs.
 */
import { machineInfo, renderSuite, writeRecord, type RunRecord, type Suite } from "./lib/report.js";

const SUITES: Record<string, () => Promise<Suite>> = {
  relay: async () => (await import("./suites/relay.js")).relaySuite,
  "cold-open": async () => (await import("./suites/cold-open.js")).coldOpenSuite,
  keystroke: async () => (await import("./suites/keystroke.js")).keystrokeSuite,
  mcp: async () => (await import("./suites/mcp.js")).mcpSuite,
  "app-hop": async () => (await import("./suites/app-hop.js")).appHopSuite,
  planner: async () => (await import("./suites/planner.js")).plannerSuite,
  "agent-chat": async () => (await import("./suites/agent-chat.js")).agentChatSuite,
};

function parseArgs(argv: string[]): { names: string[]; quick: boolean } {
  const quick = argv.includes("--quick");
  const names = argv.filter((a) => !a.startsWith("--"));
  for (const name of names) {
    if (!(name in SUITES)) {
      console.error(`unknown suite "${name}"; choose from: ${Object.keys(SUITES).join(", ")}`);
      process.exit(2);
    }
  }
  const unknownFlags = argv.filter((a) => a.startsWith("--") && a !== "--quick");
  if (unknownFlags.length > 0) {
    console.error(`unknown option ${unknownFlags.join(" ")}; the only option is --quick`);
    process.exit(2);
  }
  return { names: names.length > 0 ? names : Object.keys(SUITES), quick };
}

async function main(): Promise<void> {
  const { names, quick } = parseArgs(process.argv.slice(2));
  const record: RunRecord = {
    startedAt: new Date().toISOString(),
    quick,
    machine: machineInfo(),
    suites: [],
    errors: [],
  };
  console.log(
    `bench: ${names.join(", ")}${quick ? " (--quick)" : ""} on ${record.machine.cpus} x ${record.machine.cpuModel}, node ${record.machine.node}`,
  );
  for (const name of names) {
    const started = performance.now();
    const log = (message: string) => console.error(`[${name} ${((performance.now() - started) / 1000).toFixed(1)}s] ${message}`);
    try {
      const suite = await SUITES[name]();
      const result = await suite({ quick, log });
      record.suites.push(result);
      console.log(`\n${renderSuite(result)}\n`);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      record.errors.push({ suite: name, message });
      console.log(`\n## ${name}\n\nFAILED: ${message}\n`);
    }
  }
  const path = writeRecord(record);
  console.log(`results written to ${path}`);
  process.exitCode = record.errors.length > 0 ? 1 : 0;
}

await main();
process.exit(process.exitCode ?? 0);
