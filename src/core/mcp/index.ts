/**
 * MCP servers: connecting, listing and calling their tools (loaded only when a conversation configures them).
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export type { McpServerStatus } from './mcp-manager.js';
