/**
 * The signed-in person's picture, or their initials when there is none or it cannot load (the Electron window's CSP
 * allows no remote images, so the initials are the normal case there). Decorative: the text beside it names them.
 */
import { useState } from "react";
import { initials } from "./PresenceAvatars.js";

export function GitHubAvatar({ login, name, avatarUrl, size = 28 }: { login: string; name?: string; avatarUrl?: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  if (avatarUrl && !failed) {
    return <img className="gh-avatar" src={avatarUrl} alt="" aria-hidden="true" style={style} referrerPolicy="no-referrer" onError={() => setFailed(true)} />;
  }
  return (
    <span className="gh-avatar gh-avatar-initials" aria-hidden="true" style={style}>
      {initials(name || login)}
    </span>
  );
}
