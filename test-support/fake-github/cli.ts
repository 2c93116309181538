/**
 * Runs the fake GitHub as its own process (for Playwright and for tests that may not import test-support/): prints
 * one JSON line {"url": ...} on stdout once listening, then serves until killed. `--port N` picks a fixed port.
 */
import { startFakeGitHub } from "./server.js";

const portArg = process.argv.indexOf("--port");
const fake = await startFakeGitHub({ port: portArg > 0 ? Number(process.argv[portArg + 1]) : 0 });
process.stdout.write(`${JSON.stringify({ url: fake.url, port: fake.port })}\n`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
