/** The sidebar footer's GitHub account button: who is signed in (or that nobody is); opens Settings. */
import { useStore } from "zustand";
import type { AuthState } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { GitHubAvatar } from "./GitHubAvatar.js";
import { Icon } from "./Icons.js";

export function accountWords(auth: AuthState | null): string {
  if (!auth) return "GitHub: checking…";
  switch (auth.state) {
    case "signed-in":
      return auth.login ?? "Signed in";
    case "signing-in":
      return "Signing in to GitHub…";
    case "not-configured":
      return "GitHub not set up";
    default:
      return "Not signed in to GitHub";
  }
}

export function AccountIndicator() {
  const { github, ui } = useServices();
  const auth = useStore(github, (s) => s.auth);
  const words = accountWords(auth);
  return (
    <button
      type="button"
      className={`account-indicator is-${auth?.state ?? "loading"}`}
      // The name holds the visible words (WCAG 2.5.3, label in name), after what the button is.
      aria-label={`GitHub account: ${words}`}
      title={`GitHub account: ${words}`}
      // To the GitHub account section, below the fold of Settings: that is what the button names.
      onClick={() => ui.getState().openDialog("settings", "github")}
    >
      {auth?.state === "signed-in" && auth.login ? (
        <GitHubAvatar login={auth.login} name={auth.name} avatarUrl={auth.avatarUrl} size={22} />
      ) : (
        <span className="account-icon" aria-hidden="true">
          <Icon name="people" size={14} />
        </span>
      )}
      <span className="account-words">{words}</span>
    </button>
  );
}
