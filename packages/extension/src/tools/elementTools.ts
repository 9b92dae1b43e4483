/** The element-addressed tools (part of TOOL_REGISTRY, spread in by tools/index.ts). */
import { checkTool, uncheckTool } from './check.js';
import type { AnyToolDefinition } from './defineTool.js';
import { dragTool } from './drag.js';
import { fillTool } from './fill.js';
import { focusTool } from './focus.js';
import { hoverTool } from './hover.js';
import { scrollTool } from './scroll.js';
import { selectTool } from './select.js';
import { uploadTool } from './upload.js';

export const ELEMENT_TOOL_REGISTRY: readonly AnyToolDefinition[] = [
  fillTool,
  focusTool,
  hoverTool,
  selectTool,
  checkTool,
  uncheckTool,
  scrollTool,
  dragTool,
  uploadTool,
];
