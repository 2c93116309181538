import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { connectHost, type Connection } from "./connect.js";
import { REFUSAL_STORAGE_KEY, SECRET_STORAGE_KEY } from "./secret.js";
import { hostEnvironment } from "../test/host-environment.js";
import { waitFor } from "../../../shared/wait-for.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** Plays main/host on a loopback port: HTTP answers, socket upgrades are turned away with 401 unless `accept`. */
async function hostLike(accept: boolean): Promise<number> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, verifyClient: (_info, done) => done(accept, 401) });
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  cleanups.push(() => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  });
  return (wss.address() as { port: number }).port;
}

function track(connection: Connection): Connection {
  cleanups.push(() => (connection.bridge as { close?: () => void }).close?.());
  return connection;
}

describe("connectHost", () => {
  it("forgets a secret from an earlier launch once the core refuses it", async () => {
    const env = hostEnvironment(WebSocket, await hostLike(false), "", "stale");
    const connection = track(connectHost(env));
    await waitFor(() => connection.coreLink!.state() === "refused", "connection.coreLink!.state() === \"refused\"");
    expect(env.stored.has(SECRET_STORAGE_KEY)).toBe(false);
    // It never worked in this tab: a stale link, not a restart seen from here.
    expect(env.stored.get(REFUSAL_STORAGE_KEY)).toBe("stale");
  });

  it("records that Chopin was restarted when the secret this tab linked with is refused later", async () => {
    let accept = true;
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, verifyClient: (_info, done) => done(accept, 401) });
    await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
    cleanups.push(() => {
      for (const client of wss.clients) client.terminate();
      wss.close();
    });
    const env = hostEnvironment(WebSocket, (wss.address() as { port: number }).port, "#secret=s1", null);
    const connection = track(connectHost(env));
    await waitFor(() => connection.coreLink!.state() === "open", "connection.coreLink!.state() === \"open\"");
    expect(env.stored.has(REFUSAL_STORAGE_KEY)).toBe(false);
    // A new launch on the same port: same server answering, this secret refused.
    accept = false;
    for (const client of wss.clients) client.terminate();
    await waitFor(() => connection.coreLink!.state() === "refused", "the refusal", 20_000);
    expect(env.stored.get(REFUSAL_STORAGE_KEY)).toBe("restarted");
    expect(env.stored.has(SECRET_STORAGE_KEY)).toBe(false);
  });

  it("forgets a wrong secret from the link once the core refuses it", async () => {
    const env = hostEnvironment(WebSocket, await hostLike(false), "#secret=wrong", null);
    const connection = track(connectHost(env));
    expect(env.stored.get(SECRET_STORAGE_KEY)).toBe("wrong");
    await waitFor(() => connection.coreLink!.state() === "refused", "connection.coreLink!.state() === \"refused\"");
    expect(env.stored.has(SECRET_STORAGE_KEY)).toBe(false);
  });

  it("keeps the secret the core accepts", async () => {
    const env = hostEnvironment(WebSocket, await hostLike(true), "#secret=good", null);
    const connection = track(connectHost(env));
    await waitFor(() => connection.coreLink!.state() === "open", "connection.coreLink!.state() === \"open\"");
    expect(env.stored.get(SECRET_STORAGE_KEY)).toBe("good");
  });

  it("asks for the printed link when there is no secret at all", async () => {
    expect(() => connectHost(hostEnvironment(WebSocket, 1, "", null))).toThrow(/link Chopin printed/);
  });
});
