/**
 * The document header's repository control: the bound owner/name with Change and Unbind, or "Bind repository".
 * Binding opens the picker (which says so when nobody is signed in); unbinding needs no sign-in.
 */
import { useState } from "react";
import type { DocumentDetail } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { Icon } from "./Icons.js";

export function RepositoryControl({ doc }: { doc: DocumentDetail }) {
  const { ui, bridge, documents } = useServices();
  const [busy, setBusy] = useState(false);
  const repo = doc.repository;
  const editable = doc.archivedAt === null;
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
          <span className="repo-name" title={repo.defaultBranch ? `Default branch: ${repo.defaultBranch}` : undefined}>
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
