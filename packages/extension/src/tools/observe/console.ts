/**
 * `console`: the tab's buffered console messages and uncaught exceptions, filtered by level and id.
 * Credentials in the text are masked (observe/redact.ts): bearer strings, tokens, sensitive name=value
 * pairs, and the values of the tab's own cookies, which `console.log(document.cookie)` prints under any
 * name. (`js` reads the page unmasked when an agent really needs a value.)
 */
import type { ToolResult } from '@chrome-relay/protocol';
import { callTab } from '../../context/call.js';
import { atLeast, type RawSend } from '../../observe/captures.js';
import { redactText, redactUrl } from '../../observe/redact.js';
import { rawSend } from '../../observe/wire.js';
import { defineTool } from '../defineTool.js';

type ConsoleEntry = ToolResult<'console'>['entries'][number];

/** The values of the cookies the tab's page can see; none when CDP cannot say (the text rules still apply). */
export async function cookieValues(send: RawSend): Promise<string[]> {
  try {
    const answer = (await send('Network.getCookies')) as { cookies?: { value?: unknown }[] };
    return (answer.cookies ?? []).flatMap((cookie) => (typeof cookie.value === 'string' ? [cookie.value] : []));
  } catch {
    return [];
  }
}

export function redactEntry(entry: ConsoleEntry, secrets: readonly string[]): ConsoleEntry {
  const out: ConsoleEntry = { ...entry, text: redactText(entry.text, secrets) };
  if (entry.url !== undefined) out.url = redactUrl(entry.url);
  return out;
}

export const consoleTool = defineTool({
  name: 'console',
  uses: ['captures'],
  async handle(params, ctx): Promise<ToolResult<'console'>> {
    const tabId = callTab(ctx);
    const send = rawSend(ctx.cdp, tabId);
    await ctx.captures.arm(tabId, send);
    const buffer = ctx.captures.console(tabId);
    const selected = buffer.since(params.since ?? 0).filter(({ value }) => atLeast(value.level, params.level));
    const secrets = selected.length > 0 ? await cookieValues(send) : [];
    const entries: ConsoleEntry[] = selected.map(({ id, value }) => redactEntry({ id, ...value }, secrets));
    const dropped = buffer.dropped;
    if (params.clear) buffer.clear();
    return { tabId, entries, dropped };
  },
});

