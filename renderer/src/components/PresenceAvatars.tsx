/**
 * Who else has this document open: one coloured initial per person, with the name on hover and for screen readers.
 * Only while this window hears its core: without it no heartbeat arrives, and the last list would claim people are
 * here who may have left (UX audit: a teammate stayed "here" all the while this device's core was down).
 */
import { useStore } from "zustand";
import { useServices } from "../state/app-services.js";

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return "?";
  return (parts[0][0] + (parts.length > 1 ? parts[parts.length - 1][0] : "")).toUpperCase();
}

export function PresenceAvatars() {
  const { editor, connection } = useServices();
  const peers = useStore(editor, (s) => s.peers);
  const coreOpen = useStore(connection, (s) => s.core === "open");
  if (peers.length === 0 || !coreOpen) return null;
  const names = peers.map((p) => p.name).join(", ");
  return (
    <ul className="presence" aria-label={`Also here: ${names}`}>
      {peers.map((peer) => (
        <li key={peer.peerId} className="avatar" style={{ backgroundColor: peer.color }} title={peer.name}>
          <span aria-hidden="true">{initials(peer.name)}</span>
          <span className="visually-hidden">{peer.name}</span>
        </li>
      ))}
    </ul>
  );
}
