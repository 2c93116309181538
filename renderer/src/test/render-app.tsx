/**
 * Test support (imported only by *.test.tsx): the whole App rendered over a memory bridge and a pair of linked
 * in-memory repos (the core's and this window's). Call cleanupApps() after each test.
 */
import { cleanup, render } from "@testing-library/react";
import { AppServicesContext, createAppServices, type AppServicesOptions } from "../state/app-services.js";
import { App } from "../components/App.js";
import { linkedRepos } from "./linked-repos.js";
import { createMemoryBridge, type MemoryBridge } from "./memory-bridge.js";

const closers: (() => void)[] = [];

/** `prepare` may replace bridge methods before the App first calls them; `options` go to createAppServices. */
export function renderApp(prepare?: (bridge: MemoryBridge) => void, options?: AppServicesOptions) {
  const { core, replica, close } = linkedRepos();
  closers.push(close);
  const bridge = createMemoryBridge(core);
  prepare?.(bridge);
  const services = createAppServices(bridge, replica, undefined, options);
  render(
    <AppServicesContext.Provider value={services}>
      <App />
    </AppServicesContext.Provider>,
  );
  return { bridge, services, core };
}

export function cleanupApps(): void {
  cleanup();
  while (closers.length) closers.pop()!();
}
