/**
 * Runs one host 'call': find the tool, validate params, run the handler with a deadline, validate
 * the result, and answer with exactly one ExtensionToHost message. It never throws: every failure
 * becomes an error reply, and anything that is not already a RelayError is a bug (internal_error).
 */
import {
  parseParams,
  parseResult,
  RelayError,
  VERSION,
  type ExtensionToHost,
  type HostToExtension,
  type ToolName,
} from '@chrome-relay/protocol';
import type { BrowserApi } from './browserApi.js';
import type { CdpSessions } from './cdp/cdpSession.js';
import type { AnyToolDefinition, ToolContext, ToolDefinition } from './tools/defineTool.js';

export type CallMessage = Extract<HostToExtension, { type: 'call' }>;
export type Dispatch = (call: CallMessage) => Promise<ExtensionToHost>;

/**
 * Time kept back from the host's deadline so our answer (even a `ready: false` one) crosses the
 * native port before the host gives up on the call.
 */
export const DEADLINE_MARGIN_MS = 250;

export interface DispatcherDeps {
  readonly tools: readonly AnyToolDefinition[];
  readonly cdp: CdpSessions;
  readonly browser: BrowserApi;
  readonly now?: () => number;
}

async function run<T extends ToolName>(tool: ToolDefinition<T>, rawParams: unknown, ctx: ToolContext): Promise<unknown> {
  const params = parseParams(tool.name, rawParams);
  const result = await tool.handle(params, ctx);
  return parseResult(tool.name, result);
}

export function createDispatcher(deps: DispatcherDeps): Dispatch {
  const byName = new Map<string, AnyToolDefinition>(deps.tools.map((tool) => [tool.name, tool]));
  const now = deps.now ?? Date.now;

  return async (call) => {
    try {
      const tool = byName.get(call.tool);
      if (!tool) {
        throw new RelayError(
          'unsupported_tool',
          `This extension (${VERSION}) does not know the tool "${call.tool}": update the extension (\`chrome-relay doctor\` shows versions) or check the command name.`,
          { tool: call.tool, phase: 'dispatch', details: { tool: call.tool, extensionVersion: VERSION } },
        );
      }
      const ctx: ToolContext = { cdp: deps.cdp, browser: deps.browser, deadline: now() + call.timeoutMs - DEADLINE_MARGIN_MS };
      const result = await run(tool, call.params, ctx);
      return { type: 'result', id: call.id, ok: true, result };
    } catch (error) {
      // A plain Error can only come from inside a handler (a bug there): report it in phase 'act'.
      return { type: 'error', id: call.id, error: RelayError.from(error, call.tool, 'act').toData() };
    }
  };
}
