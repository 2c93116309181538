/**
 * The document header's repository control: the bound owner/name with Change and Unbind, or "Bind repository".
 * Binding opens the picker (which says so when nobody is signed in); unbinding needs no sign-in. While GitHub sign-in
 * is not set up for this installation, "Bind repository" stays visible but disabled, saying why (as Share does
 * without a relay), instead of opening a dialog that can only say no. While signed in, a
 * bound document is refreshed once per document shown, so a renamed or transferred repository shows its new owner/name;
 * a failed refresh changes nothing, and says so beside the name in words a keyboard or screen-reader user reaches too
 * (a tooltip alone reached neither; UX audit).
 */
import { useEffect, useState } from "react";
import { useStore } from "zustand";
import type { DocumentDetail } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { Icon } from "./Icons.js";

/** Why binding is unavailable (announced as the button's description, shown on hover). */
export const GITHUB_NOT_SET_UP_REASON =
  "Binding a repository needs GitHub sign-in, which is not set up for this installation. The document works as before.";

export function RepositoryControl({ doc }: { doc: DocumentDetail }) {
  const { ui, bridge, documents, github } = useServices();
  const [busy, setBusy] = useState(false);
  const [refreshError, setRefreshError] = useState<{ id: string; message: string } | null>(null);
  const signedIn = useStore(github, (s) => s.auth?.state === "signed-in");
  const notSetUp = useStore(github, (s) => s.auth?.state === "not-configured");
  const repo = doc.repository;
  const editable = doc.archivedAt === null;
  const bound = repo !== null;
  // Once per document (and per sign-in): a rename lands through 'documents-changed', which reloads `doc`.
  useEffect(() => {
    if (!bound || !signedIn) return;
    let live = true;
    bridge.api.refreshRepositoryBinding(doc.id).then(
      () => {
        if (live) setRefreshError(null);
      },
      (error: unknown) => {
        if (live) setRefreshError({ id: doc.id, message: describeError(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [bridge, doc.id, bound, signedIn]);
  const refreshFailed = refreshError?.id === doc.id ? `Could not refresh from GitHub: ${refreshError.message}` : null;
  const tooltip = [repo?.defaultBranch ? `Default branch: ${repo.defaultBranch}` : null, refreshFailed]
    .filter((line): line is string => line !== null)
    .join("\n");
  const unbind = async () => {
    setBusy(true);
    try {
      await bridge.api.unbindRepository(doc.id);
      await documents.getState().reloadSelected();
    } catch (error) {
      documents.getState().showNotice(describeError(error), doc.id);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="repo-control" role="group" aria-label="Repository">
      {repo ? (
        <>
          <span className="repo-name" title={tooltip || undefined}>
            <Icon name="doc" size={12} />
            {repo.owner}/{repo.name}
          </span>
          {refreshFailed && (
            <span className="repo-stale" role="note" title={refreshFailed}>
              not checked with GitHub<span className="visually-hidden">: {refreshFailed}</span>
            </span>
          )}
          {editable && (
            <>
              <button type="button" className="button button-small" aria-label="Change repository" onClick={() => ui.getState().openDialog("repository")}>
                Change
              </button>
              <button type="button" className="button button-small" aria-label="Unbind repository" disabled={busy} onClick={() => void unbind()}>
                Unbind
              </button>
            </>
          )}
        </>
      ) : editable ? (
        // aria-disabled, not disabled: the button stays focusable, so a keyboard or screen reader user hears why.
        <button
          type="button"
          className="button button-small"
          aria-disabled={notSetUp ? true : undefined}
          title={notSetUp ? GITHUB_NOT_SET_UP_REASON : undefined}
          onClick={() => {
            if (!notSetUp) ui.getState().openDialog("repository");
          }}
        >
          Bind repository
        </button>
      ) : (
        <span className="repo-name is-none">No repository</span>
      )}
    </div>
  );
}
