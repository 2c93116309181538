/**
 * The host-mode bridge: ChopinApi calls and ChopinEvents over one JSON WebSocket to the core. The socket comes back
 * by itself after a drop (capped exponential backoff). What must stay true: a call is sent at most once (a call
 * whose answer was lost with the socket is rejected as "core-unreachable", never silently resent, because it may
 * have been applied); a call made while the link is down is refused at once as "core-unavailable" and never replayed
 * later (a click made while the core was stopped must not act minutes afterwards); only calls made before the very
 * first connection settles wait for it, so the window's first reads need no retry. A socket turned away before it
 * opens while the core's HTTP server still answers means the core refuses this page's secret (the browser hides the
 * 401): after BRIDGE_REFUSALS_BEFORE_FATAL such attempts in a row the bridge stops for good in state "refused".
 * Every refusal is a ChopinError.
 */
import { API_METHODS, EVENT_NAMES } from "../../../shared/api.js";
import type { ApiMethod, BridgeRequest, ChopinApi, ChopinBridge, EventName } from "../../../shared/api.js";
import { ChopinError, fromErrorShape, isErrorCode } from "../../../shared/errors.js";
import { BRIDGE_PROBE_TIMEOUT_MS, BRIDGE_RECONNECT_MAX_MS, BRIDGE_RECONNECT_MIN_MS, BRIDGE_REFUSALS_BEFORE_FATAL, MAX_BRIDGE_PENDING_CALLS } from "../limits.js";

/** "refused": the core turned this page's secret away; final, the window must be opened from the printed link. */
export type BridgeConnectionState = "connecting" | "open" | "closed" | "refused";

/** What the person reads when the core refuses this page (wrong secret, or one from an earlier launch). */
export const CORE_REFUSED_MESSAGE =
  "Chopin did not accept this page's secret — it changes each time Chopin starts. Open the link Chopin printed when it started.";

/** The same refusal when this tab's secret had worked before: the core that refuses it is a new launch. */
export const CORE_RESTARTED_MESSAGE =
  "Chopin was restarted since this page connected, and each start makes a new secret link, so this page's link no longer works. Open the new link Chopin printed when it started again.";

const UNAVAILABLE_MESSAGE = "Chopin's core cannot be reached right now, so nothing was changed. Try again once it is back.";

/** Resolves true when the core's HTTP server answers at all (any status), false when nothing is listening. */
export type CoreProbe = () => Promise<boolean>;

/** Asks the HTTP server behind a ws:// or wss:// URL for its front page; any answer means the core is running. */
export function httpProbe(socketUrl: string): CoreProbe {
  const target = new URL("/", socketUrl.replace(/^ws/, "http")).toString();
  return () =>
    fetch(target, { method: "HEAD", cache: "no-store", signal: AbortSignal.timeout(BRIDGE_PROBE_TIMEOUT_MS) }).then(
      () => true,
      () => false,
    );
}

export interface SocketBridgeOptions {
  /** How a socket turned away before opening is told apart from a core that is down (default: httpProbe(url)). */
  probe?: CoreProbe;
}

/** The part of the browser WebSocket this bridge uses; `ws` in Node satisfies it too. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: "open" | "close" | "error", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
}
export type WebSocketFactory = (url: string) => WebSocketLike;

export interface SocketBridge extends ChopinBridge {
  readonly connectionState: BridgeConnectionState;
  /** Called on every change of the socket's state; "open" after a drop means events may have been missed. */
  onConnection(listener: (state: BridgeConnectionState) => void): () => void;
  /** Stops reconnecting and rejects every waiting call. */
  close(): void;
}

/** Delay before reconnect attempt `attempt` (0-based): doubles from the minimum, never above the cap. */
export function reconnectDelay(attempt: number): number {
  return Math.min(BRIDGE_RECONNECT_MAX_MS, BRIDGE_RECONNECT_MIN_MS * 2 ** Math.min(attempt, 30));
}

interface PendingCall {
  frame: string;
  sent: boolean;
  resolve(value: unknown): void;
  reject(error: ChopinError): void;
}

const OPEN = 1;

export function createSocketBridge(
  url: string,
  createSocket: WebSocketFactory = (u) => new WebSocket(u),
  { probe = httpProbe(url) }: SocketBridgeOptions = {},
): SocketBridge {
  const pending = new Map<number, PendingCall>();
  const eventListeners = new Map<EventName, Set<(payload: never) => void>>();
  const connectionListeners = new Set<(state: BridgeConnectionState) => void>();
  let nextId = 1;
  let socket: WebSocketLike | null = null;
  let state: BridgeConnectionState = "connecting";
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let closedForGood = false;
  // Until the first connection settles (open, core down, or refused), calls wait instead of being refused.
  let firstConnection = true;
  let refusals = 0;

  const setState = (next: BridgeConnectionState) => {
    if (state === next) return;
    state = next;
    for (const listener of [...connectionListeners]) safely(() => listener(next));
  };

  const rejectUnsent = (error: () => ChopinError) => {
    for (const [id, call] of pending) {
      if (call.sent) continue;
      pending.delete(id);
      call.reject(error());
    }
  };

  const refuse = () => {
    closedForGood = true;
    firstConnection = false;
    if (retryTimer) clearTimeout(retryTimer);
    rejectUnsent(() => new ChopinError("unauthorized", CORE_REFUSED_MESSAGE));
    setState("refused");
  };

  const flush = () => {
    if (!socket || socket.readyState !== OPEN) return;
    for (const call of pending.values()) {
      if (call.sent) continue;
      socket.send(call.frame);
      call.sent = true;
    }
  };

  const onMessage = (data: unknown) => {
    if (typeof data !== "string") return;
    let frame: unknown;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (!frame || typeof frame !== "object") return;
    const f = frame as Record<string, unknown>;
    if (typeof f.id === "number" && typeof f.ok === "boolean") {
      const call = pending.get(f.id);
      if (!call) return;
      pending.delete(f.id);
      if (f.ok) call.resolve(f.result);
      else call.reject(toChopinError(f.error));
      return;
    }
    if (typeof f.event === "string" && (EVENT_NAMES as readonly string[]).includes(f.event)) {
      const listeners = eventListeners.get(f.event as EventName);
      for (const listener of [...(listeners ?? [])]) safely(() => listener(f.payload as never));
    }
  };

  const connect = () => {
    retryTimer = null;
    if (closedForGood) return;
    setState("connecting");
    let ws: WebSocketLike;
    try {
      ws = createSocket(url);
    } catch {
      scheduleReconnect();
      return;
    }
    socket = ws;
    let opened = false;
    ws.addEventListener("open", () => {
      if (socket !== ws) return;
      opened = true;
      attempt = 0;
      refusals = 0;
      firstConnection = false;
      setState("open");
      flush();
    });
    ws.addEventListener("message", (event) => {
      if (socket === ws) onMessage(event.data);
    });
    // Browsers fire "error" then "close"; only "close" decides.
    ws.addEventListener("error", () => {});
    ws.addEventListener("close", () => {
      if (socket !== ws) return;
      socket = null;
      for (const [id, call] of pending) {
        if (!call.sent) continue;
        pending.delete(id);
        call.reject(
          new ChopinError(
            "core-unreachable",
            "The connection to Chopin dropped before it answered. The action may or may not have been applied.",
          ),
        );
      }
      if (closedForGood) return;
      if (opened) {
        setState("closed");
        scheduleReconnect();
        return;
      }
      // Turned away before opening: a core that is down does not answer HTTP either, one that refuses us does.
      void probe().then((answering) => {
        if (closedForGood || socket !== null) return;
        refusals = answering ? refusals + 1 : 0;
        if (refusals >= BRIDGE_REFUSALS_BEFORE_FATAL) return refuse();
        if (!answering) {
          firstConnection = false;
          rejectUnsent(() => new ChopinError("core-unavailable", UNAVAILABLE_MESSAGE));
          setState("closed");
        }
        scheduleReconnect();
      });
    });
  };

  const scheduleReconnect = () => {
    if (closedForGood || retryTimer) return;
    retryTimer = setTimeout(connect, reconnectDelay(attempt++));
  };

  const call = (method: ApiMethod, args: unknown[]): Promise<unknown> => {
    if (state === "refused") return Promise.reject(new ChopinError("unauthorized", CORE_REFUSED_MESSAGE));
    if (closedForGood) return Promise.reject(new ChopinError("core-unreachable", "This window is closed."));
    if (state !== "open" && !firstConnection) return Promise.reject(new ChopinError("core-unavailable", UNAVAILABLE_MESSAGE));
    if (pending.size >= MAX_BRIDGE_PENDING_CALLS) {
      return Promise.reject(
        new ChopinError("core-unreachable", "Too many actions are waiting for Chopin to answer. Try again in a moment."),
      );
    }
    // JSON turns a trailing `undefined` into null; the core's optional parameters expect them absent.
    while (args.length > 0 && args[args.length - 1] === undefined) args = args.slice(0, -1);
    const id = nextId++;
    const request: BridgeRequest = { id, method, args };
    return new Promise((resolve, reject) => {
      pending.set(id, { frame: JSON.stringify(request), sent: false, resolve, reject });
      flush();
    });
  };

  const api = Object.fromEntries(
    API_METHODS.map((method) => [method, (...args: unknown[]) => call(method, args)]),
  ) as unknown as ChopinApi;

  connect();

  return {
    api,
    get connectionState() {
      return state;
    },
    on(event, listener) {
      let set = eventListeners.get(event);
      if (!set) eventListeners.set(event, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
    close() {
      closedForGood = true;
      if (retryTimer) clearTimeout(retryTimer);
      const ws = socket;
      socket = null;
      ws?.close();
      for (const call of pending.values()) call.reject(new ChopinError("core-unreachable", "This window is closed."));
      pending.clear();
      if (state !== "refused") setState("closed");
    },
  };
}

function toChopinError(shape: unknown): ChopinError {
  if (shape && typeof shape === "object" && isErrorCode((shape as { code?: unknown }).code)) {
    const s = shape as { code: ChopinError["code"]; message?: unknown; details?: Record<string, unknown> };
    return fromErrorShape({ code: s.code, message: String(s.message ?? s.code), details: s.details });
  }
  return new ChopinError("internal", "Chopin answered with an error it could not describe.");
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch (error) {
    console.error(error);
  }
}

