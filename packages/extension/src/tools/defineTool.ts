/**
 * One tool = one value. The wire shape (description, params, result) lives in protocol TOOLS and is
 * not repeated here; a definition adds the services the handler uses and the handler. The dispatcher validates
 * params before `handle` runs and the result after, so handlers receive typed, checked input, and hands the handler
 * its call's context with those services only (actions/toolContext.ts).
 */
import type { ToolName, ToolParams, ToolResult } from '@chrome-relay/protocol';
import type { ServiceName, ToolContext } from '../actions/toolContext.js';

export interface ToolDefinition<T extends ToolName, S extends ServiceName = ServiceName> {
  readonly name: T;
  /** The worker's services the handler uses: it is handed these and nothing else (a test builds only these). */
  readonly uses: readonly S[];
  handle(params: ToolParams<T>, ctx: ToolContext<S>): Promise<ToolResult<T>>;
  /**
   * Whether this result proves the tab's document was parsed when the tool answered (navigate that waited for
   * DOMContentLoaded or load): the snapshot after it (`--snapshot`) then starts at once instead of asking the page.
   */
  leavesParsed?(params: ToolParams<T>, result: ToolResult<T>): boolean;
}

/** Any one tool's definition (the union over all tool names), for the registry. */
export type AnyToolDefinition = { [T in ToolName]: ToolDefinition<T> }[ToolName];

export function defineTool<T extends ToolName, const S extends ServiceName = never>(def: ToolDefinition<T, S>): ToolDefinition<T, S> {
  return def;
}

/** The context a tool is handed: its call's part, and the services it named (`uses`) — the rest are not there. */
export function handedTo<S extends ServiceName>(uses: readonly S[], ctx: ToolContext): ToolContext<S> {
  const { cdp, browser, deadline, target, refs } = ctx;
  const services: Partial<Record<ServiceName, unknown>> = {};
  for (const name of uses) services[name] = ctx[name];
  // Every name in `uses` was copied from a full context: the object holds exactly Pick<ToolServices, S>.
  return { cdp, browser, deadline, target, refs, ...services } as ToolContext<S>;
}
