/**
 * Runs the fake OpenAI as its own process (for Playwright and for tests that may not import test-support/): prints
 * one JSON line {"url", "apiKey", "port"} on stdout once listening, then serves until SIGTERM/SIGINT. Tests script it
 * through its /_fake/ control surface (connectFakeOpenAI). `--port N` picks a fixed port, `--api-key K` the key,
 * `--models a,b` the model ids.
 */
import { startFakeOpenAI } from "./server.js";

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

const models = arg("--models")?.split(",").map((m) => m.trim()).filter(Boolean);
const fake = await startFakeOpenAI({ port: Number(arg("--port") ?? 0), apiKey: arg("--api-key"), models });
process.stdout.write(`${JSON.stringify({ url: fake.url, apiKey: fake.apiKey, port: fake.port })}\n`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
