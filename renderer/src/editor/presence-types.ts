/**
 * What presence says about a person, shared by the page (which shows it) and the replica host (which exchanges it
 * with the team through the document's ephemeral messages). What must stay true: nothing here touches a document.
 */

/** A position as an Automerge cursor plus the index it had when sent. */
export interface SharedPosition {
  cursor: string | null;
  index: number;
}

export interface PresenceUser {
  name: string;
  color: string;
  /** The app core (device) the window belongs to: a person's own other windows are told apart from teammates. */
  device?: string;
}

/** How a window of this same device is named in "Also here" and on its caret. */
export const OWN_OTHER_WINDOW_NAME = "You (another window)";

export type PresenceState = {
  user: PresenceUser;
  selection: { anchor: SharedPosition; head: SharedPosition } | null;
};

export interface Peer extends PresenceUser {
  peerId: string;
}

/** The name to show for a peer: a window of this device is the person themself, not a teammate of the same name. */
export function shownName(user: PresenceUser, ownDevice: string | undefined): string {
  return ownDevice !== undefined && user.device === ownDevice ? OWN_OTHER_WINDOW_NAME : user.name;
}
