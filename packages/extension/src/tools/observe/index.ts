/** The observation and organisation tools, for the registry in tools/index.ts. */
import type { AnyToolDefinition } from '../defineTool.js';
import { consoleTool } from './console.js';
import { networkBodyTool, networkHarTool, networkTool } from './network.js';
import { organizeTools } from './organize.js';
import { recordStartTool, recordStopTool } from './record.js';
import { screenshotTool } from './screenshot.js';

export const OBSERVE_TOOL_REGISTRY: readonly AnyToolDefinition[] = [
  screenshotTool,
  recordStartTool,
  recordStopTool,
  consoleTool,
  networkTool,
  networkBodyTool,
  networkHarTool,
  ...Object.values(organizeTools),
];
