/**
 * Alice and Bob as the Planner's e2e tests need them: the fake GitHub (its own process), a relay process admitting
 * both by relay token, a fake model whose turns never end (so ownership alone is what a test watches), and one
 * host-mode core each, configured for all three. Signing in is the test's own step (signIn).
 */
import { expect } from "@playwright/test";
import { connectFakeGitHub } from "../../test-support/fake-github/control.js";
import { defaultFixtures } from "../../test-support/fake-github/fixtures.js";
import { connectCoreApi, type CoreApiClient } from "./core-api-client.js";
import { startFakeGitHubProcess, type FakeGitHubProcess } from "./fake-github.js";
import { startPlannerModel, type PlannerModel } from "./planner-model.js";
import { startCore, tempDir, type CoreReady, type Started } from "./processes.js";
import { addRelayUser, startRelayProcess } from "./relay.js";
import { freePort } from "./tcp-proxy.js";

export interface PlannerTeam {
  fake: FakeGitHubProcess;
  model: PlannerModel;
  coreA: Started<CoreReady>;
  coreB: Started<CoreReady>;
  /** The fake GitHub and the model (the processes go with the suite's stopAll()). */
  close(): Promise<void>;
}

export async function startPlannerTeam(prefix: string): Promise<PlannerTeam> {
  const fake = await startFakeGitHubProcess();
  const model = await startPlannerModel({ hang: true });
  const github = ["--github-client-id", defaultFixtures().clientId, "--github-api-url", fake.url, "--github-web-url", fake.url, ...model.args];
  const relayDir = tempDir(`${prefix}-relay`);
  const port = await freePort();
  const [tokenA, tokenB] = [await addRelayUser(relayDir, "alice"), await addRelayUser(relayDir, "bob")];
  await startRelayProcess(relayDir, port);
  const [coreA, coreB] = await Promise.all([
    startCore(tempDir(`${prefix}-a`), ["--relay", `ws://127.0.0.1:${port}`, "--relay-token", tokenA, ...github], model.env),
    startCore(tempDir(`${prefix}-b`), ["--relay", `ws://127.0.0.1:${port}`, "--relay-token", tokenB, ...github], model.env),
  ]);
  return {
    fake,
    model,
    coreA,
    coreB,
    async close() {
      await fake.stop();
      await model.fake.close();
    },
  };
}

/** Signs a core in to the fake GitHub as `login` through the device flow; the API client stays open for the caller. */
export async function signIn(team: PlannerTeam, ready: CoreReady, login: string): Promise<CoreApiClient> {
  const client = await connectCoreApi(ready);
  const { deviceFlow } = await client.api.startSignIn();
  await connectFakeGitHub(team.fake.url).approveDevice(deviceFlow!.userCode, login);
  await expect.poll(async () => (await client.api.getAuthState()).state, { timeout: 30_000 }).toBe("signed-in");
  return client;
}
