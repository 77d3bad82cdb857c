export { serveStdio } from './serve-stdio.js';
export { createTollgateMcpServer, MCP_SERVER_NAME, type TollgateMcpServerOptions } from './server.js';
export { mcpNameOf, planValidationTools, type ValidationToolPlan } from './tool-plan.js';
