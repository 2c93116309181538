/** The MCP server's public surface for the app core. */
export { startMcpServer, MCP_INSTRUCTIONS, type McpServerOptions, type RunningMcpServer } from "./server.js";
export { loadOrCreateMcpToken } from "./token.js";
export { writeMcpConfig, mcpConfigOf, MCP_CONFIG_FILE } from "./config-file.js";
export { mcpConnectCommands, type McpConnectCommands } from "./connect-commands.js";
export { startMcpOnStablePort, type StablePortServer } from "./stable-port.js";
