/**
 * The CLI edge of every browser tool: validate params locally (fast invalid_arguments without a round trip),
 * call the host, validate the result, surface version-skew notices.
 */
import { asInterrupted, parseParams, parseResult, RelayError, type ToolName, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { callHost } from './hostClient.js';
import { printNotice } from './output.js';
import { skewNotices } from './versionSkew.js';
import type { GlobalOptions } from './globalOptions.js';

export async function runTool<T extends ToolName>(tool: T, params: ToolParams<T>, globals: GlobalOptions): Promise<ToolResult<T>> {
  const clean = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
  const validated = parseParams(tool, clean, 'cli');
  const response = await callHost(tool, validated as Record<string, unknown>, {
    home: globals.home,
    profile: globals.profile,
    timeoutMs: globals.timeoutMs,
    target: globals.target,
    agent: globals.agent,
  });
  for (const notice of skewNotices(response.versions.extension?.version ?? null)) printNotice(notice);
  // An extension-side timeout of a mutating tool may have acted too (a page that stopped answering mid-click).
  if (!response.ok) throw asInterrupted(RelayError.fromData(response.error));
  return parseResult(tool, response.result);
}
