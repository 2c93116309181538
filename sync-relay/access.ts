/**
 * The single decision whether a user may sync a document. Today every admitted user is a member of the relay's one
 * team and may sync every document it holds; per-document access replaces this function, and nothing else.
 */
export type AccessDecision = (user: string, documentId: string) => boolean | Promise<boolean>;

export const teamAccess: AccessDecision = () => true;
