/**
 * The "GitHub account" part of Settings: sign in with the device flow (the code, large and copyable, and the address
 * to type it at), then who is signed in, whether the sign-in is kept on this device (or came from a token Chopin was
 * started with, CHOPIN_GITHUB_TOKEN, which is never kept), and Sign out. Staying signed in where the OS offers no
 * encryption is offered only after a warning the person must acknowledge.
 */
import { useId, useState } from "react";
import { useStore } from "zustand";
import type { AuthState } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { GitHubAvatar } from "./GitHubAvatar.js";
import { CopyButton } from "./CopyButton.js";

export function GitHubAccountSection() {
  const { github, ui } = useServices();
  const auth = useStore(github, (s) => s.auth);
  // Opened from the GitHub account button: the dialog starts here (focusing the heading scrolls it into view).
  const arrived = useStore(ui, (s) => s.settingsFocus === "github");
  const actionError = useStore(github, (s) => s.actionError);
  const headingId = useId();
  return (
    <section className="settings-section github-account" aria-labelledby={headingId}>
      <h3 className="settings-heading" id={headingId} tabIndex={arrived ? -1 : undefined} data-autofocus={arrived ? true : undefined}>
        GitHub account
      </h3>
      {!auth ? <p className="panel-empty">Loading…</p> : <AccountBody auth={auth} />}
      {auth?.lastError && auth.state !== "signing-in" && (
        <p className="panel-error" role="alert">
          {auth.lastError.message}
        </p>
      )}
      {actionError && (
        <p className="panel-error" role="alert">
          {actionError}
        </p>
      )}
    </section>
  );
}

function AccountBody({ auth }: { auth: AuthState }) {
  switch (auth.state) {
    case "not-configured":
      return (
        <p className="field-hint">
          GitHub sign-in is not set up for this installation (no GitHub App client id was given). Everything else works without it. To
          enable it, start Chopin with <code>--github-client-id</code> or set <code>CHOPIN_GITHUB_CLIENT_ID</code>.
        </p>
      );
    case "signed-out":
      return <SignInForm secureStorage={auth.secureStorage} />;
    case "signing-in":
      return <DeviceCode flow={auth.deviceFlow!} />;
    case "signed-in":
      return <SignedIn auth={auth} />;
  }
}

function SignInForm({ secureStorage }: { secureStorage: boolean }) {
  const { github } = useServices();
  const busy = useStore(github, (s) => s.busy);
  const [stay, setStay] = useState(false);
  const [consent, setConsent] = useState(false);
  const warningId = useId();
  const needsConsent = stay && !secureStorage;
  return (
    <div className="github-signin">
      <p className="field-hint">Sign in to bind documents to GitHub repositories. Writing and syncing documents never needs it.</p>
      <label className="toggle">
        <input
          type="checkbox"
          checked={stay}
          onChange={(e) => {
            setStay(e.target.checked);
            setConsent(false);
          }}
        />
        <span>Stay signed in on this device</span>
      </label>
      {stay && secureStorage && <p className="field-hint">The sign-in is kept encrypted by your system's keychain.</p>}
      {needsConsent && (
        <div className="github-warning" role="note" id={warningId}>
          <p>
            This system offers no encryption for a saved sign-in. Staying signed in keeps your GitHub tokens in an <strong>unencrypted
            file</strong> in Chopin's data folder that only your user account can read. Anyone with access to your account or a copy of
            that folder could act on GitHub as you until you sign out.
          </p>
          <label className="toggle">
            <input type="checkbox" checked={consent} onChange={(e) => setConsent(e.target.checked)} aria-describedby={warningId} />
            <span>I understand — keep my sign-in in an unencrypted file</span>
          </label>
        </div>
      )}
      <div className="dialog-actions github-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy || (needsConsent && !consent)}
          onClick={() => void github.getState().startSignIn({ staySignedIn: stay, ...(needsConsent && consent ? { plaintextConsent: true } : {}) })}
        >
          Sign in with GitHub
        </button>
      </div>
    </div>
  );
}

function DeviceCode({ flow }: { flow: NonNullable<AuthState["deviceFlow"]> }) {
  const { github } = useServices();
  const codeId = useId();
  return (
    <div className="github-device">
      <p className="field-hint" id={codeId}>
        Type this code on GitHub to let Chopin act as you:
      </p>
      <div className="device-code-row">
        <code className="device-code" aria-describedby={codeId} data-testid="device-code">
          {flow.userCode}
        </code>
        <CopyButton text={flow.userCode} name="Copy code" what="the code" />
      </div>
      <p className="field-hint">
        Open{" "}
        <a href={flow.verificationUri} target="_blank" rel="noreferrer">
          {flow.verificationUri}
        </a>{" "}
        and enter the code.
      </p>
      <div className="dialog-actions github-actions">
        <span className="form-message github-waiting" role="status">
          Waiting for GitHub…
        </span>
        <button type="button" className="button" aria-label="Cancel sign-in" onClick={() => void github.getState().cancelSignIn()}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function SignedIn({ auth }: { auth: AuthState }) {
  const { github } = useServices();
  const busy = useStore(github, (s) => s.busy);
  const login = auth.login ?? "";
  return (
    <div className="github-signed-in">
      <div className="github-identity">
        <GitHubAvatar login={login} name={auth.name} avatarUrl={auth.avatarUrl} size={36} />
        <div>
          <div className="github-name">{auth.name ?? login}</div>
          <div className="field-hint">
            Signed in as <strong>@{login}</strong>
          </div>
        </div>
      </div>
      <p className="field-hint">
        {auth.suppliedToken
          ? "Signed in with the token Chopin was started with (CHOPIN_GITHUB_TOKEN): held in memory only, never saved; signing out forgets it."
          : auth.staySignedIn
            ? "Stay signed in: on — kept on this device between launches."
            : "Stay signed in: off — signed in until Chopin quits."}{" "}
        Credential revision {auth.credentialRevision}.
      </p>
      <div className="dialog-actions github-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void github.getState().signOut()}>
          Sign out
        </button>
      </div>
    </div>
  );
}
