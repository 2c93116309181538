/**
 * Copy-paste commands that connect each coding agent to this app's MCP port. Codex does not accept an inline
 * bearer token in config.toml; it reads the token from the environment variable named by --bearer-token-env-var,
 * so its command exports that variable (it must also be set where Codex later runs).
 */
import { MCP_SERVER_NAME } from "./config-file.js";

export const CODEX_TOKEN_ENV = "CHOPIN_MCP_TOKEN";

export interface McpConnectCommands {
  copilotCli: string;
  claudeCode: string;
  codex: string;
}

export function mcpConnectCommands(url: string, token: string): McpConnectCommands {
  const header = `"Authorization: Bearer ${token}"`;
  return {
    copilotCli: `copilot mcp add --transport http --header ${header} ${MCP_SERVER_NAME} ${url}`,
    claudeCode: `claude mcp add --transport http ${MCP_SERVER_NAME} ${url} --header ${header}`,
    codex: `export ${CODEX_TOKEN_ENV}=${token} && codex mcp add ${MCP_SERVER_NAME} --url ${url} --bearer-token-env-var ${CODEX_TOKEN_ENV}`,
  };
}
