import { TOOLS, WAIT_REPORT_MS, type ToolName } from '@chrome-relay/protocol';

/**
 * A call whose tool has a budget of its own (wait's timeoutMs): the budget is what the caller gave, or the call
 * timeout; the call's deadline goes WAIT_REPORT_MS around it, so the tool can still report what it waited for.
 * The same for a typed command, an MCP call and a batch's tool step.
 */
export function withOwnBudget(tool: ToolName, params: Record<string, unknown>, callTimeoutMs: number): { params: Record<string, unknown>; timeoutMs: number } {
  const budget = TOOLS[tool].cli?.budget;
  if (budget === undefined) return { params, timeoutMs: callTimeoutMs };
  const own = typeof params[budget] === 'number' ? (params[budget] as number) : callTimeoutMs;
  return { params: { ...params, [budget]: own }, timeoutMs: own + WAIT_REPORT_MS };
}
