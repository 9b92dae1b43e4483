/** `console`: the tab's buffered console messages and uncaught exceptions, filtered by level and id. */
import type { ToolResult } from '@chrome-relay/protocol';

type ConsoleEntry = ToolResult<'console'>['entries'][number];
import { atLeast, captures as defaultCaptures, type TabCaptures } from '../../observe/captures.js';
import { rawSend } from '../../observe/wire.js';
import { resolveTab } from '../../targets.js';
import { defineTool } from '../defineTool.js';

export function createConsoleTool(captures: TabCaptures) {
  return defineTool({
    name: 'console',
    async handle(params, ctx): Promise<ToolResult<'console'>> {
      const tabId = await resolveTab(params.tab, ctx);
      await captures.arm(tabId, rawSend(ctx.cdp, tabId));
      const buffer = captures.console(tabId);
      const entries: ConsoleEntry[] = buffer
        .since(params.since ?? 0)
        .filter(({ value }) => atLeast(value.level, params.level))
        .map(({ id, value }) => ({ id, ...value }));
      const dropped = buffer.dropped;
      if (params.clear) buffer.clear();
      return { tabId, entries, dropped };
    },
  });
}

export const consoleTool = createConsoleTool(defaultCaptures);
