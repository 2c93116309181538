/**
 * The core API as the replica host reaches it: through the page, which holds the bridge (Electron's preload, or the
 * host-mode socket). Each call is a message; its answer or typed error comes back under the call's id.
 * What must stay true: every call settles (answered, or refused with "core-unavailable" once the link is closed);
 * an error keeps its code and sentence.
 */
import type { ChopinApi } from "../../../shared/api.js";
import { ChopinError, type ErrorCode } from "../../../shared/errors.js";
import type { HostApiMethod, HostToPage, PageToHost } from "./host-protocol.js";

export type PageApi = Pick<ChopinApi, HostApiMethod>;

export class PageApiClient {
  #next = 1;
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
  #closed = false;

  constructor(private readonly post: (message: HostToPage) => void) {}

  readonly api: PageApi = {
    getDocument: (...args) => this.#call("getDocument", args) as ReturnType<PageApi["getDocument"]>,
    readSavedDocument: (...args) => this.#call("readSavedDocument", args) as ReturnType<PageApi["readSavedDocument"]>,
    waitSaved: (...args) => this.#call("waitSaved", args) as ReturnType<PageApi["waitSaved"]>,
  };

  /** An answer from the page. */
  settle(message: Extract<PageToHost, { t: "api-result" }>): void {
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    if (message.ok) pending.resolve(message.value);
    else pending.reject(new ChopinError(message.code as ErrorCode, message.message));
  }

  close(): void {
    this.#closed = true;
    for (const pending of this.#pending.values()) pending.reject(unavailable());
    this.#pending.clear();
  }

  #call(method: HostApiMethod, args: unknown[]): Promise<unknown> {
    if (this.#closed) return Promise.reject(unavailable());
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.post({ t: "api", id, method, args });
    });
  }
}

function unavailable(): ChopinError {
  return new ChopinError("core-unavailable", "This window's replica has stopped; reload the window.");
}
