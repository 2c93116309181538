/**
 * The document header's repository control: the bound owner/name with Change and Unbind, or "Bind repository".
 * Binding opens the picker (which says so when nobody is signed in); unbinding needs no sign-in. While signed in, a
 * bound document is refreshed once per document shown, so a renamed or transferred repository shows its new owner/name;
 * a failed refresh changes nothing and is only mentioned in the name's tooltip.
 */
import { useEffect, useState } from "react";
import { useStore } from "zustand";
import type { DocumentDetail } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { Icon } from "./Icons.js";

export function RepositoryControl({ doc }: { doc: DocumentDetail }) {
  const { ui, bridge, documents, github } = useServices();
  const [busy, setBusy] = useState(false);
  const [refreshError, setRefreshError] = useState<{ id: string; message: string } | null>(null);
  const signedIn = useStore(github, (s) => s.auth?.state === "signed-in");
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
  const tooltip = [
    repo?.defaultBranch ? `Default branch: ${repo.defaultBranch}` : null,
    refreshError?.id === doc.id ? `Could not refresh from GitHub: ${refreshError.message}` : null,
  ]
    .filter((line): line is string => line !== null)
    .join("\n");
  const unbind = async () => {
    setBusy(true);
    try {
      await bridge.api.unbindRepository(doc.id);
      await documents.getState().reloadSelected();
    } catch (error) {
      documents.setState({ notice: describeError(error) });
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
        <button type="button" className="button button-small" onClick={() => ui.getState().openDialog("repository")}>
          Bind repository
        </button>
      ) : (
        <span className="repo-name is-none">No repository</span>
      )}
    </div>
  );
}
