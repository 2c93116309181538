/**
 * An automerge-repo client for relay benchmarks: one Repo per client (one WebSocket per client, documents
 * multiplexed), in memory, text appended with splice. Shared by the bare automerge-repo baseline and by our relay
 * when it speaks the automerge-repo wire (the network adapter is the only difference, so it is a parameter).
 */
import { next as A } from "@automerge/automerge";
import { Repo, type AutomergeUrl, type DocHandle, type NetworkAdapterInterface, type PeerId } from "@automerge/automerge-repo";
import type { RelayClient, TextDoc } from "./relay-target.js";
import { waitFor, withTimeout } from "../lib/wait.js";

interface TextShape {
  text: string;
}

const CONNECT_TIMEOUT_MS = 10_000;
const OPEN_TIMEOUT_MS = 15_000;

function textDoc(handle: DocHandle<TextShape>): TextDoc {
  return {
    append(text) {
      // The length comes from the materialized document: read through the change's proxy, it decodes the whole text
      // (measured ~0.5 ms a change at 10,000 characters), a cost no editor pays (the app splices at known positions).
      const at = handle.doc().text.length;
      handle.change((d) => A.splice(d, ["text"], at, 0, text));
    },
    length: () => handle.doc().text.length,
    onChange(listener) {
      handle.on("change", listener);
    },
  };
}

export async function connectAutomergeClient(
  adapter: NetworkAdapterInterface,
  label: string,
  peerId = `${label}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
  /** Called with the new Repo before its adapter can connect (our adapter attaches its change fast path here). */
  onRepo?: (repo: Repo) => void,
): Promise<RelayClient> {
  const repo = new Repo({ network: [adapter], peerId: peerId as PeerId });
  onRepo?.(repo);
  await waitFor(() => repo.peers.length > 0, CONNECT_TIMEOUT_MS, `${label} to join the relay`);
  const own = new Map<string, DocHandle<TextShape>>();
  return {
    async createDoc() {
      const handle = repo.create<TextShape>({ text: "" });
      own.set(handle.url, handle);
      return handle.url;
    },
    async openDoc(key) {
      // find() rejects "unavailable" until the creator's first sync reached the relay (automerge.md gotcha 3): retry.
      const deadline = performance.now() + OPEN_TIMEOUT_MS;
      for (;;) {
        try {
          const handle = await withTimeout(repo.find<TextShape>(key as AutomergeUrl), OPEN_TIMEOUT_MS, `find ${key}`);
          return textDoc(handle);
        } catch (error) {
          if (performance.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    },
    ownDoc(key) {
      const handle = own.get(key);
      if (!handle) throw new Error(`${label} did not create ${key}`);
      return textDoc(handle);
    },
    async close() {
      await repo.shutdown();
    },
  };
}
