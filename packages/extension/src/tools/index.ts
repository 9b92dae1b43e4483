/** Every tool the extension answers. The host answers the entries with `answeredBy: 'host'` itself; anything else is unsupported_tool. */
import type { AnyToolDefinition } from './defineTool.js';
import { clickTool } from './click.js';
import { closeTool } from './close.js';
import { dialogTool } from './dialog.js';
import { downloadTool } from './download.js';
import { ELEMENT_TOOL_REGISTRY } from './elementTools.js';
import { getTool } from './get.js';
import { backTool, forwardTool, reloadTool } from './history.js';
import { jsTool } from './js.js';
import { keysTool } from './keys.js';
import { navigateTool } from './navigate.js';
import { OBSERVE_TOOL_REGISTRY } from './observe/index.js';
import { pingTool } from './ping.js';
import { restartHostTool } from './restartHost.js';
import { snapshotTool } from './snapshot.js';
import { tabsTool } from './tabs.js';
import { typeTool } from './type.js';
import { waitTool } from './wait.js';

export const TOOL_REGISTRY: readonly AnyToolDefinition[] = [
  tabsTool,
  navigateTool,
  snapshotTool,
  clickTool,
  keysTool,
  typeTool,
  backTool,
  forwardTool,
  reloadTool,
  closeTool,
  waitTool,
  getTool,
  jsTool,
  dialogTool,
  downloadTool,
  restartHostTool,
  pingTool,
  ...OBSERVE_TOOL_REGISTRY,
  ...ELEMENT_TOOL_REGISTRY,
];
