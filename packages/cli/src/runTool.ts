/**
 * The CLI edge of every browser tool: call the host, read the answer, surface version-skew notices.
 *
 * Params are checked by the extension, first thing, against the tool's schema; a result is checked
 * against it here only when it comes from another build (sameBuild.ts). So a call builds no schema
 * on its way, which at start-up cost more than the call itself. When a call fails and the params
 * do not pass the schema, that is reported instead (invalid_arguments), also when no browser is
 * connected: bad input is always said to be bad input.
 */
import { asInterrupted, isHostTool, parseParams, parseResult, RelayError, toolLabel, type AfterSnapshot, type ClientResponse, type ToolName, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { callHost } from './hostClient.js';
import { printNotice } from './output.js';
import { isSameBuild } from './sameBuild.js';
import { skewNotices } from './versionSkew.js';
import type { GlobalOptions } from './globalOptions.js';

/** The params' own error when they do not pass the schema, else `error`. */
function invalidOr(tool: ToolName, params: Record<string, unknown>, error: unknown): unknown {
  try {
    parseParams(tool, params, 'cli');
  } catch (invalid) {
    return invalid;
  }
  return error;
}

/**
 * How a caller explains a failed call. By default the params are held to the schema (bad input is said to be bad
 * input); a command line passes its own, which checks them once naming the flags as typed (toolCommand.ts).
 */
export type ExplainFailure = (error: unknown) => unknown;

async function call<T extends ToolName>(tool: T, params: ToolParams<T>, globals: GlobalOptions, snapshot?: Record<string, unknown>, explain?: ExplainFailure): Promise<{ result: ToolResult<T>; response: Extract<ClientResponse, { ok: true }> }> {
  const clean = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
  const failed: ExplainFailure = explain ?? ((error) => invalidOr(tool, clean, error));
  let response: ClientResponse;
  try {
    response = await callHost(tool, clean, {
      home: globals.home,
      profile: globals.profile,
      timeoutMs: globals.timeoutMs,
      target: globals.target,
      agent: globals.agent,
      snapshot,
      endpoint: globals.endpoint,
    });
  } catch (error) {
    throw failed(error);
  }
  for (const notice of skewNotices(response.versions.extension?.version ?? null)) printNotice(notice);
  // An extension-side timeout of a mutating tool may have acted too (a page that stopped answering mid-click).
  if (!response.ok) throw failed(asInterrupted(RelayError.fromData(response.error)));
  const producer = isHostTool(tool) ? response.versions.host : response.versions.extension;
  return { result: isSameBuild(producer) ? (response.result as ToolResult<T>) : parseResult(tool, response.result), response };
}

export async function runTool<T extends ToolName>(tool: T, params: ToolParams<T>, globals: GlobalOptions, explain?: ExplainFailure): Promise<ToolResult<T>> {
  return (await call(tool, params, globals, undefined, explain)).result;
}

/**
 * Run `tool`, then a snapshot of the tab its result names with `snapshot` params (an action's
 * --snapshot). One call, answered with both, when the host and extension are of this build; else
 * the snapshot is a call of its own. The snapshot's failure is returned, not thrown: the action
 * happened all the same.
 */
export async function runToolThenSnapshot<T extends ToolName>(
  tool: T,
  params: ToolParams<T>,
  globals: GlobalOptions,
  snapshot: Record<string, unknown>,
  explain?: ExplainFailure,
): Promise<{ result: ToolResult<T>; snapshot: AfterSnapshot }> {
  const { result, response } = await call(tool, params, globals, snapshot, explain);
  if (response.snapshot !== undefined) return { result, snapshot: response.snapshot };
  const tabId = (result as { tabId?: unknown }).tabId;
  try {
    if (typeof tabId !== 'number') throw new RelayError('invalid_arguments', `${toolLabel(tool)} names no tab to snapshot after it.`, { tool: 'snapshot', phase: 'cli', details: { field: 'snapshot' } });
    return { result, snapshot: { ok: true, result: await runTool('snapshot', { ...snapshot, tab: tabId } as ToolParams<'snapshot'>, globals) } };
  } catch (error) {
    return { result, snapshot: { ok: false, error: RelayError.from(error, 'snapshot', 'cli').toData() } };
  }
}
