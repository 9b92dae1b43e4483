/**
 * What a tool's handler gets (the dispatcher builds one per call): the call's part (context/call.ts: the debugger,
 * Chrome's tab APIs, the deadline) and the services the composition root (background.ts) built once.
 */
import type { CallContext } from '../context/call.js';

export type ToolContext = CallContext;
