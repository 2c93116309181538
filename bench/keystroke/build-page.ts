/**
 * Builds the bench page once per bench run (Vite build API, bench-local config) and serves it on 127.0.0.1.
 * Shared by the keystroke suite (typing) and the cold-open suite (first paint in Chromium).
 */
import { build } from "vite";
import keystrokeConfig, { KEYSTROKE_PAGE_OUT } from "./vite.config.js";
import { serveDirectory, type StaticServer } from "../lib/static-server.js";

let built: Promise<void> | undefined;

export function buildBenchPage(): Promise<void> {
  built ??= build({ ...keystrokeConfig, configFile: false }).then(() => undefined);
  return built;
}

export async function serveBenchPage(): Promise<StaticServer> {
  await buildBenchPage();
  return serveDirectory(KEYSTROKE_PAGE_OUT);
}
