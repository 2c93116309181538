/**
 * The model a host-mode core's Planner talks to in e2e tests: our fake OpenAI-compatible server in the test process,
 * handed to a core as its configured provider (flags, and the key in the environment as people would pass it).
 */
import { startFakeOpenAI, type FakeOpenAI } from "../../test-support/fake-openai/server.js";
import type { ScriptedReply } from "../../test-support/fake-openai/types.js";

export interface PlannerModel {
  fake: FakeOpenAI;
  /** Command-line flags and environment for startCore. */
  args: string[];
  env: NodeJS.ProcessEnv;
}

export async function startPlannerModel(defaultReply?: ScriptedReply): Promise<PlannerModel> {
  const fake = await startFakeOpenAI(defaultReply ? { defaultReply } : {});
  return {
    fake,
    args: ["--planner-provider", "openai", "--planner-base-url", fake.url, "--planner-model", fake.models[0]!],
    env: { CHOPIN_PLANNER_API_KEY: fake.apiKey },
  };
}
