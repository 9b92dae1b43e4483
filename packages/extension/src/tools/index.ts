/** Every tool the extension answers. The host answers HOST_TOOLS itself; anything else is unsupported_tool. */
import type { AnyToolDefinition } from './defineTool.js';
import { clickTool } from './click.js';
import { navigateTool } from './navigate.js';
import { reconnectTool } from './reconnect.js';
import { snapshotTool } from './snapshot.js';
import { tabsTool } from './tabs.js';

export const TOOL_REGISTRY: readonly AnyToolDefinition[] = [tabsTool, navigateTool, snapshotTool, clickTool, reconnectTool];
