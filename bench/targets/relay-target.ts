/**
 * What the relay suite needs from a relay under test: start it in its own process, connect clients, and per client
 * a text document it can append to and watch. Every target measures the same thing (one appended character per
 * change; a reader knows change N arrived when the text reaches length N), so rows are comparable.
 */

export interface TextDoc {
  /** Appends the text as one change (the suite appends one character, or a whole document before measuring). */
  append(text: string): void;
  length(): number;
  /** Called after every local or remote change to this document. */
  onChange(listener: () => void): void;
}

export interface RelayClient {
  /** Creates a document on this client and makes sure the relay has it; returns the key other clients open. */
  createDoc(): Promise<string>;
  /** Opens a document another client created; resolves once it is synced from the relay. */
  openDoc(key: string): Promise<TextDoc>;
  /** The document this client created under `key`. */
  ownDoc(key: string): TextDoc;
  close(): Promise<void>;
}

export interface RunningRelay {
  /** The relay process, for CPU metering. */
  pid: number;
  /** What a client needs to reach it (port, token): plain data, so a client thread can connect too. */
  endpoint: RelayEndpoint;
  stop(): Promise<void>;
}

export type RelayEndpoint = Record<string, string | number>;

export interface RelayTarget {
  name: string;
  /** Starts the relay; throws RelayNotAvailable when the target cannot run (missing module, different API). */
  start(): Promise<RunningRelay>;
  /** Connects one client; callable in any thread given the endpoint start() returned. */
  connect(endpoint: RelayEndpoint, label: string): Promise<RelayClient>;
}

export class RelayNotAvailable extends Error {}
