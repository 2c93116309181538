/**
 * read_repository_file: one UTF-8 text file at the session pin, a window of lines. Bounds: the path passes the path
 * policy; files up to MAX_REPOSITORY_FILE_BYTES; binary (NUL) and non-UTF-8 content refused; without an end line the
 * window is REPOSITORY_FILE_DEFAULT_WINDOW_LINES long.
 */
import { z } from "zod";
import { MAX_REPOSITORY_FILE_BYTES, REPOSITORY_FILE_DEFAULT_WINDOW_LINES } from "../../util/limits.js";
import type { Octokit } from "../../../shared/node/github-client.js";
import { checkRepositoryPath, encodeRepositoryPath } from "./path-policy.js";
import { repoOf, type ToolContext, type ToolResult, runRepositoryTool } from "./tool-result.js";
import { defineTool } from "../../util/tool-registry.js";
import { ChopinError } from "../../../shared/errors.js";

export const readRepositoryFileInput = z.strictObject({
  path: z.string(),
  start_line: z.number().int().min(1).optional(),
  end_line: z.number().int().min(1).optional(),
});

export interface RepositoryFileWindow {
  path: string;
  commitSha: string;
  startLine: number;
  endLine: number;
  totalLines: number;
  /** More lines exist after endLine. */
  truncated: boolean;
  content: string;
}

type ContentsJson = Awaited<ReturnType<Octokit["rest"]["repos"]["getContent"]>>["data"];

export const readRepositoryFileTool = defineTool({
  name: "read_repository_file",
  description: "Read one UTF-8 text file of the bound repository at the session's pinned commit, a window of lines (start_line, end_line).",
  input: readRepositoryFileInput,
  errors: ["invalid-path", "not-found", "not-a-file", "too-large", "binary-file", "not-utf8", "timeout", "rate-limited", "unauthorized", "forbidden", "github-unavailable"],
  async handler({ path, start_line, end_line }, ctx: ToolContext): Promise<RepositoryFileWindow> {
      const checked = checkRepositoryPath(path);
      if (!checked.ok) throw new ChopinError("invalid-path", `Refused path: ${checked.reason}.`);
      const startLine = start_line ?? 1;
      if (end_line !== undefined && end_line < startLine) throw new ChopinError("invalid-input", "end_line must not be before start_line.");

      // The path goes in the route itself, each segment encoded and its slashes kept (octokit's {path} would encode them).
      const { data: body }: { data: ContentsJson } = await ctx.rest.octokit.request(`GET /repos/{owner}/{repo}/contents/${encodeRepositoryPath(checked.path)}`, {
        ...repoOf(ctx),
        ref: ctx.pin.commitSha,
      });
      if (Array.isArray(body)) throw new ChopinError("not-a-file", `${checked.path} is a directory; use list_repository_tree.`);
      if (body.type !== "file") throw new ChopinError("not-a-file", `${checked.path} is a ${body.type ?? "non-file"} entry, not a file.`);
      const size = body.size ?? 0;
      if (size > MAX_REPOSITORY_FILE_BYTES || !("encoding" in body) || body.encoding !== "base64") {
        throw new ChopinError("too-large", `${checked.path} is ${size} bytes; files up to ${MAX_REPOSITORY_FILE_BYTES} bytes can be read.`);
      }
      const bytes = Buffer.from(body.content ?? "", "base64");
      if (bytes.length > MAX_REPOSITORY_FILE_BYTES) throw new ChopinError("too-large", `${checked.path} is larger than ${MAX_REPOSITORY_FILE_BYTES} bytes.`);
      if (bytes.includes(0)) throw new ChopinError("binary-file", `${checked.path} is a binary file; only UTF-8 text can be read.`);
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        throw new ChopinError("not-utf8", `${checked.path} is not valid UTF-8 text.`);
      }

      const lines = text.split("\n");
      if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop(); // a final newline ends the last line
      const totalLines = text === "" ? 0 : lines.length;
      if (totalLines > 0 && startLine > totalLines) throw new ChopinError("invalid-input", `start_line ${startLine} is past the end; the file has ${totalLines} lines.`);
      const endLine = Math.min(end_line ?? startLine + REPOSITORY_FILE_DEFAULT_WINDOW_LINES - 1, totalLines);
      return {
        path: checked.path,
        commitSha: ctx.pin.commitSha,
        startLine: totalLines === 0 ? 0 : startLine,
        endLine,
        totalLines,
        truncated: endLine < totalLines,
        content: lines.slice(startLine - 1, endLine).join("\n"),
      };
  },
});

/** The tool run on raw input, in the one tool convention. */
export function readRepositoryFile(ctx: ToolContext, input: unknown): Promise<ToolResult<RepositoryFileWindow>> {
  return runRepositoryTool(readRepositoryFileTool, ctx, input);
}
