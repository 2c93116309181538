/**
 * search_repository: code search confined to the bound repository. We build the `repo:` qualifier ourselves from the
 * binding, refuse terms carrying qualifiers that could widen the scope (repo:, org:, user:, ...), and post-filter
 * results by the repository's node ID, so a hit from any other repository (a fork, a namesake after a transfer)
 * never reaches the model. GitHub's code index follows the default branch head, not the pin: read hits through
 * read_repository_file to see them at the pinned commit.
 */
import { z } from "zod";
import { MAX_REPOSITORY_SEARCH_RESULTS, MAX_REPOSITORY_SEARCH_TERMS_CHARS, REPOSITORY_SEARCH_DEFAULT_RESULTS } from "../../util/limits.js";
import { clip, type ToolContext, type ToolResult, runRepositoryTool } from "./tool-result.js";
import { defineTool } from "../../util/tool-registry.js";
import { ChopinError } from "../../../shared/errors.js";

export const searchRepositoryInput = z.strictObject({
  terms: z.string(),
  limit: z.number().int().min(1).max(MAX_REPOSITORY_SEARCH_RESULTS).optional(),
});

/** Qualifiers that select other repositories or owners; refused wherever they appear as a word. */
const SCOPE_QUALIFIER = /(?<![A-Za-z0-9_])(?:repo|repository|org|user|owner|enterprise|fork|is|in)\s*:/i;
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

export interface SearchHit {
  path: string;
  fragments: string[];
}

export interface SearchResults {
  results: SearchHit[];
  /** Hits GitHub returned from other repositories, dropped. */
  filteredOut: number;
  incomplete: boolean;
  note: string;
}

/** Checks search terms; returns a refusal sentence or null. */
export function checkSearchTerms(terms: string): string | null {
  const t = terms.trim();
  if (t.length === 0) return "the search terms are empty";
  if (terms.length > MAX_REPOSITORY_SEARCH_TERMS_CHARS) return `search terms are at most ${MAX_REPOSITORY_SEARCH_TERMS_CHARS} characters`;
  if (CONTROL.test(terms)) return "control characters are not allowed in search terms";
  if (SCOPE_QUALIFIER.test(terms)) return "qualifiers that choose repositories, owners or scopes (repo:, org:, user:, ...) are not allowed; the search is already limited to the bound repository";
  return null;
}

export const searchRepositoryTool = defineTool({
  name: "search_repository",
  description: "Search the bound repository's code for terms (no qualifiers: the search stays in this repository), bounded.",
  input: searchRepositoryInput,
  errors: ["out-of-scope", "timeout", "rate-limited", "unauthorized", "forbidden", "github-unavailable"],
  async handler({ terms, limit }, ctx: ToolContext): Promise<SearchResults> {
      const problem = checkSearchTerms(terms);
      if (problem) throw new ChopinError(problem.startsWith("qualifiers") ? "out-of-scope" : "invalid-input", `Refused search: ${problem}.`);
      const n = limit ?? REPOSITORY_SEARCH_DEFAULT_RESULTS;
      const q = `${terms.trim()} repo:${ctx.binding.owner}/${ctx.binding.name}`;
      const { data: body } = await ctx.rest.octokit.rest.search.code({ q, per_page: n, mediaType: { format: "text-match" } });
      const mine = body.items.filter((i) => i.repository?.node_id === ctx.binding.nodeId);
      return {
        results: mine.slice(0, n).map((i) => ({
          path: i.path,
          fragments: (i.text_matches ?? []).map((m) => clip(m.fragment, 1000)).filter(Boolean),
        })),
        filteredOut: body.items.length - mine.length,
        incomplete: body.incomplete_results === true,
        note: "Search runs on GitHub's index of the default branch head; read_repository_file shows the pinned commit.",
      };
  },
});

/** The tool run on raw input, in the one tool convention. */
export function searchRepository(ctx: ToolContext, input: unknown): Promise<ToolResult<SearchResults>> {
  return runRepositoryTool(searchRepositoryTool, ctx, input);
}
