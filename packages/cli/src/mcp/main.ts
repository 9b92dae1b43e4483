/** Entry of dist/mcp.cjs, loaded by `chrome-relay mcp` only (commands/mcp.ts). */
export { runMcpServer } from './server.js';
export { BrowserOnDemand } from './onDemand.js';
