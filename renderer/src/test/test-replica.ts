/**
 * Test support: a window's replica client over an in-process replica host on `repo` (the replica side of
 * linkedRepos, or a lone Repo), stopped by stopTestReplicas() (call it after each test that made one).
 */
import type { Repo } from "@automerge/automerge-repo";
import { startInProcessReplica } from "../replica-link/in-process-replica.js";
import type { ReplicaApi, ReplicaClient } from "../replica-link/replica-client.js";

const running: (() => void)[] = [];

export function testReplica(repo: Repo, api: ReplicaApi): ReplicaClient {
  const replica = startInProcessReplica({ repo, api });
  running.push(replica.stop);
  return replica.client;
}

export function stopTestReplicas(): void {
  while (running.length) running.pop()!();
}
