/**
 * One tool = one value. The wire shape (description, params, result) lives in protocol TOOLS and is
 * not repeated here; a definition only adds the handler. The dispatcher validates params before
 * `handle` runs and the result after, so handlers receive typed, checked input.
 */
import type { ToolName, ToolParams, ToolResult } from '@chrome-relay/protocol';
import type { ToolContext } from '../actions/toolContext.js';

export interface ToolDefinition<T extends ToolName> {
  readonly name: T;
  handle(params: ToolParams<T>, ctx: ToolContext): Promise<ToolResult<T>>;
  /**
   * Whether this result proves the tab's document was parsed when the tool answered (navigate that waited for
   * DOMContentLoaded or load): the snapshot after it (`--snapshot`) then starts at once instead of asking the page.
   */
  leavesParsed?(params: ToolParams<T>, result: ToolResult<T>): boolean;
}

/** Any one tool's definition (the union over all tool names), for the registry. */
export type AnyToolDefinition = { [T in ToolName]: ToolDefinition<T> }[ToolName];

export function defineTool<T extends ToolName>(def: ToolDefinition<T>): ToolDefinition<T> {
  return def;
}
