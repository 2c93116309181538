/**
 * Quitting waits for the core: Electron's will-quit is held (preventDefault) until core.close() has flushed storage
 * and stopped the MCP server and relay connection, then the quit is replayed. A second quit request while closing
 * is absorbed; a failing close still lets the app quit (its error is reported, not swallowed silently).
 */
export interface QuittableApp {
  on(event: "will-quit", listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
}

export function holdQuitUntil(app: QuittableApp, shutdown: () => Promise<void>, report: (error: unknown) => void = console.error): void {
  let state: "running" | "closing" | "closed" = "running";
  app.on("will-quit", (event) => {
    if (state === "closed") return;
    event.preventDefault();
    if (state === "closing") return;
    state = "closing";
    void shutdown()
      .catch(report)
      .finally(() => {
        state = "closed";
        app.quit();
      });
  });
}
