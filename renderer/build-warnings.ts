/**
 * Build warnings we know and leave: automerge-repo's refs/ module calls functions Automerge 3 added (getCursor,
 * splice, updateText, getCursorPosition), which the 2.2.9 we pin lacks (docs/architecture.md, "Automerge version").
 * Nothing of ours uses refs (a handle's ref() would throw), and seven such warnings on every build hid real ones.
 * Every other warning passes through.
 */
interface BuildWarning {
  code?: string;
  id?: string;
  message: string;
}

const AUTOMERGE_REPO_REFS = /automerge-repo[\\/]dist[\\/]refs[\\/]/;

export function isKnownBuildWarning(warning: BuildWarning): boolean {
  return warning.code === "IMPORT_IS_UNDEFINED" && AUTOMERGE_REPO_REFS.test(warning.id ?? warning.message);
}

/** For `build.rollupOptions.onwarn`. */
export function onBuildWarning<W extends BuildWarning>(warning: W, warn: (warning: W) => void): void {
  if (!isKnownBuildWarning(warning)) warn(warning);
}
