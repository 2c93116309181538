/**
 * Choosing the repository a document is about: the signed-in person's GitHub App installations, then that
 * installation's repositories; choosing one binds it (the core re-reads it from GitHub by node id). Says plainly
 * when nobody is signed in or sign-in is not set up, and offers the way there.
 */
import { useEffect, useState } from "react";
import { useStore } from "zustand";
import type { DocumentDetail, GitHubInstallation, GitHubRepositorySummary } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { Dialog } from "./Dialog.js";

type Load<T> = { status: "loading" } | { status: "ok"; value: T } | { status: "error"; message: string };

export function RepositoryPickerDialog({ doc }: { doc: DocumentDetail }) {
  const { ui, github } = useServices();
  const auth = useStore(github, (s) => s.auth);
  const close = () => ui.getState().closeDialog();
  // Binding replaces the "Bind repository" button that opened the dialog: focus goes to the control that replaced it.
  const focusRepositoryControl = () => {
    const control = document.querySelector<HTMLElement>(".repo-control button");
    if (control) control.focus();
    else ui.getState().focusDocumentList();
  };
  return (
    <Dialog title="Bind repository" onClose={close} className="dialog-repository" onFocusLost={focusRepositoryControl}>
      {auth?.state === "signed-in" ? (
        <Picker doc={doc} />
      ) : (
        <>
          <p className="dialog-text">
            {auth?.state === "not-configured"
              ? "GitHub sign-in is not set up for this installation, so repositories cannot be listed. The document works as before."
              : "Sign in with GitHub to choose a repository. The document works as before without one."}
          </p>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={close}>
              Close
            </button>
            {auth?.state !== "not-configured" && (
              <button type="button" className="button button-primary" onClick={() => ui.getState().openDialog("settings")}>
                Open GitHub sign-in
              </button>
            )}
          </div>
        </>
      )}
    </Dialog>
  );
}

function Picker({ doc }: { doc: DocumentDetail }) {
  const { ui, bridge, documents } = useServices();
  const [installations, setInstallations] = useState<Load<GitHubInstallation[]>>({ status: "loading" });
  const [chosen, setChosen] = useState<number | null>(null);
  const [repos, setRepos] = useState<Load<GitHubRepositorySummary[]> | null>(null);
  const [binding, setBinding] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Each "Try again" asks GitHub afresh (a rate limit lifted, the network back).
  const [attempt, setAttempt] = useState(0);
  const retry = () => setAttempt((n) => n + 1);

  useEffect(() => {
    let live = true;
    setInstallations({ status: "loading" });
    bridge.api.listInstallations().then(
      (value) => {
        if (!live) return;
        setInstallations({ status: "ok", value });
        if (value.length > 0) setChosen(value[0].id);
      },
      (e) => live && setInstallations({ status: "error", message: describeError(e) }),
    );
    return () => {
      live = false;
    };
  }, [bridge, attempt]);

  useEffect(() => {
    if (chosen === null) return;
    let live = true;
    setRepos({ status: "loading" });
    bridge.api.listInstallationRepositories(chosen).then(
      (value) => live && setRepos({ status: "ok", value }),
      (e) => live && setRepos({ status: "error", message: describeError(e) }),
    );
    return () => {
      live = false;
    };
  }, [bridge, chosen, attempt]);

  const bind = async (repo: GitHubRepositorySummary) => {
    if (chosen === null) return;
    setBinding(repo.nodeId);
    setError(null);
    try {
      await bridge.api.bindRepository(doc.id, { installationId: chosen, repositoryNodeId: repo.nodeId });
      await documents.getState().reloadSelected();
      ui.getState().closeDialog();
    } catch (e) {
      setError(describeError(e));
      setBinding(null);
    }
  };

  if (installations.status === "loading") return <p className="panel-empty">Loading your GitHub installations…</p>;
  if (installations.status === "error") return <LoadFailed message={installations.message} onRetry={retry} />;
  if (installations.value.length === 0) {
    return <p className="dialog-text">The Chopin GitHub App is not installed on any account you can see. Install it on GitHub, then try again.</p>;
  }
  const account = installations.value.find((i) => i.id === chosen)?.account ?? "";
  return (
    <div className="repo-picker">
      <ul className="repo-installations" aria-label="Installations">
        {installations.value.map((i) => (
          <li key={i.id}>
            <button type="button" className={`button button-small${i.id === chosen ? " is-active" : ""}`} aria-pressed={i.id === chosen} onClick={() => setChosen(i.id)}>
              {i.account}
            </button>
          </li>
        ))}
      </ul>
      {repos?.status === "loading" && <p className="panel-empty">Loading repositories…</p>}
      {repos?.status === "error" && <LoadFailed message={repos.message} onRetry={retry} />}
      {repos?.status === "ok" &&
        (repos.value.length === 0 ? (
          <p className="panel-empty">No repositories of {account} are available to the Chopin GitHub App.</p>
        ) : (
          <ul className="repo-list" aria-label={`Repositories of ${account}`}>
            {repos.value.map((r) => {
              const full = `${r.owner}/${r.name}`;
              const current = doc.repository?.nodeId === r.nodeId;
              return (
                <li key={r.nodeId} className="repo-row">
                  <span className="repo-row-name">
                    {full}
                    {r.private && <span className="doc-badge is-private">Private</span>}
                    {current && <span className="doc-badge is-shared">Bound</span>}
                  </span>
                  <button
                    type="button"
                    className="button button-small button-primary"
                    aria-label={`Bind ${full}`}
                    disabled={binding !== null || current}
                    onClick={() => void bind(r)}
                  >
                    {binding === r.nodeId ? "Binding…" : "Bind"}
                  </button>
                </li>
              );
            })}
          </ul>
        ))}
      {error && (
        <p className="panel-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** What GitHub said, and the way to ask again. */
function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="load-failed">
      <p className="panel-error" role="alert">
        {message}
      </p>
      <button type="button" className="button button-small" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
