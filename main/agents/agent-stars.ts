/**
 * This person's stars on agents in the current scope (issue #27): one Automerge document per (scope, person)
 * (agent-stars-identity.ts), shared with the relay exactly while it is the configured team's and this person's (the
 * core's share decision asks `isTeamDocument`), so the person's other devices in the team see them; without a relay it
 * is this device's and never leaves it.
 *
 * What must stay true:
 *  - a document held in storage is opened, never begun again over it (begun from the shared genesis only where none is
 *    held), so a device's first use merges with the person's stars instead of replacing them;
 *  - starring keeps to MAX_AGENT_STARS of the agents listed now (the next is refused 'too-large'); past it, stars of
 *    agents no longer listed are dropped in the same change, so removed agents cannot grow the document;
 *  - star and unstar are idempotent (nothing is written when nothing changes) and answer once on disk;
 *  - every change of the current document (this app's and the person's other devices') is said through `changed`.
 */
import type { DocHandle, DocumentId, Repo } from "@automerge/automerge-repo";
import { ChopinError } from "../../shared/errors.js";
import { MAX_AGENT_STARS } from "../../shared/limits.js";
import { AGENT_STARS_SCHEMA_VERSION, readStars, type AgentStarsDocument, type ReadStars } from "../../shared/schema/agent-stars.js";
import { agentStarsGenesis, agentStarsIdOf, type StarsOwner } from "../../shared/node/agent-stars-identity.js";

export interface AgentStarsDeps {
  repo: Repo;
  /** Whether storage holds anything of a document (so it is opened, not begun). */
  holds(documentId: string): boolean;
  /** A change of the current document arrived or was made. */
  changed(): void;
}

type StarsHandle = DocHandle<AgentStarsDocument>;
interface Opened {
  id: DocumentId;
  owner: StarsOwner;
  opening: Promise<StarsHandle>;
  stop: () => void;
}

export class AgentStars {
  readonly #deps: AgentStarsDeps;
  #current: Opened | null = null;

  constructor(deps: AgentStarsDeps) {
    this.#deps = deps;
  }

  /** The share decision's part: whether `documentId` is the stars document of this person in the configured team. */
  isTeamDocument(documentId: string): boolean {
    return this.#current !== null && this.#current.owner.scope.kind === "team" && documentId === this.#current.id;
  }

  /** The owner's stars, opening their document (and following its changes) if it is not the current one. */
  async read(owner: StarsOwner): Promise<ReadStars> {
    return readStars((await this.#open(owner).opening).doc());
  }

  /** Stars or unstars `agentId` for the owner; `listed` are the agents listed now (the bound counts only these). */
  async set(owner: StarsOwner, agentId: string, starred: boolean, listed: ReadonlySet<string>): Promise<void> {
    const handle = await this.#open(owner).opening;
    const version = handle.doc().schemaVersion;
    if (typeof version === "number" && version > AGENT_STARS_SCHEMA_VERSION) {
      throw new ChopinError("invalid-document", "Your stars were written by a newer Chopin: update Chopin to change them. Nothing was changed.");
    }
    const read = readStars(handle.doc());
    if (read.ids.has(agentId) === starred) return;
    if (starred) {
      const counted = [...read.ids].filter((id) => listed.has(id)).length;
      if (counted >= MAX_AGENT_STARS) throw new ChopinError("too-large", `You can star at most ${MAX_AGENT_STARS} agents: unstar one to star another.`);
      handle.change((doc) => {
        if (doc.stars === null || typeof doc.stars !== "object") doc.stars = {};
        if (read.keys >= MAX_AGENT_STARS) for (const key of Object.keys(doc.stars)) if (!listed.has(key)) delete doc.stars[key];
        doc.stars[agentId] = true;
      });
    } else {
      handle.change((doc) => {
        delete doc.stars[agentId];
      });
    }
    // Answered once on disk: a star the window was shown survives a crash right after the answer.
    await this.#deps.repo.flush([handle.documentId]);
  }

  /** The owner's document, opened once (again after a failed opening); another owner's stops being followed. */
  #open(owner: StarsOwner): Opened {
    const id = agentStarsIdOf(owner);
    if (this.#current?.id === id) return this.#current;
    this.#current?.stop();
    const opened: Opened = { id, owner, opening: Promise.resolve(null as never), stop: () => undefined };
    opened.opening = this.#begin(opened);
    opened.opening.catch(() => {
      if (this.#current === opened) this.#current = null;
    });
    this.#current = opened;
    return opened;
  }

  async #begin(opened: Opened): Promise<StarsHandle> {
    const { repo, holds } = this.#deps;
    const known = repo.handles[opened.id] as StarsHandle | undefined;
    let handle: StarsHandle;
    if (known?.isReady()) handle = known;
    else if (holds(opened.id)) handle = await repo.find<AgentStarsDocument>(opened.id);
    else handle = repo.import<AgentStarsDocument>(agentStarsGenesis(opened.owner), { docId: opened.id });
    await handle.whenReady();
    if (this.#current !== opened) return handle;
    const onChange = () => {
      if (this.#current === opened) this.#deps.changed();
    };
    handle.on("change", onChange);
    opened.stop = () => handle.off("change", onChange);
    return handle;
  }
}
