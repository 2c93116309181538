/**
 * Default ports and names. Stable defaults matter: a coding agent's MCP config keeps pointing at the same port across
 * launches. When a default port is taken the app falls back to a free one and rewrites the config it published.
 */
export const DEFAULT_UI_PORT = 47600;
export const DEFAULT_MCP_PORT = 47610;
export const DEFAULT_RELAY_PORT = 47620;
export const APP_DATA_FOLDER_NAME = "Chopin";
export const LOOPBACK_HOST = "127.0.0.1";
