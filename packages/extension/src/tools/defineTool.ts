/**
 * One tool = one value. The wire shape (description, params, result) lives in protocol TOOLS and is
 * not repeated here; a definition only adds the handler. The dispatcher validates params before
 * `handle` runs and the result after, so handlers receive typed, checked input.
 */
import type { ToolName, ToolParams, ToolResult } from '@chrome-relay/protocol';
import type { BrowserApi } from '../browserApi.js';
import type { CdpSessions } from '../cdp/cdpSession.js';

export interface ToolContext {
  readonly cdp: CdpSessions;
  readonly browser: BrowserApi;
  /** Epoch ms by which the handler must have answered (the host times out then). */
  readonly deadline: number;
}

export interface ToolDefinition<T extends ToolName> {
  readonly name: T;
  handle(params: ToolParams<T>, ctx: ToolContext): Promise<ToolResult<T>>;
}

/** Any one tool's definition (the union over all tool names), for the registry. */
export type AnyToolDefinition = { [T in ToolName]: ToolDefinition<T> }[ToolName];

export function defineTool<T extends ToolName>(def: ToolDefinition<T>): ToolDefinition<T> {
  return def;
}
