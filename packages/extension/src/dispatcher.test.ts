import type { ExtensionToHost, RelayErrorData, ToolResult } from '@chrome-relay/protocol';
import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { createDispatcher, DEADLINE_MARGIN_MS, type CallMessage } from './dispatcher.js';
import { createFakeEnvironment } from './testing/fakeChrome.js';
import { defineTool, type AnyToolDefinition, type ToolContext } from './tools/defineTool.js';

const NOW = 1_000_000;

function dispatcherWith(...tools: AnyToolDefinition[]) {
  const { cdp, browser } = createFakeEnvironment();
  return createDispatcher({ tools, cdp, browser, now: () => NOW });
}

function call(tool: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): CallMessage {
  return { type: 'call', id: 41, tool, params, timeoutMs };
}

function errorOf(reply: ExtensionToHost): RelayErrorData {
  if (reply.type !== 'error') throw new Error(`expected an error reply, got ${JSON.stringify(reply)}`);
  return reply.error;
}

const emptyTabs: ToolResult<'tabs'> = { windows: [] };

describe('dispatcher', () => {
  it('answers a known tool with its validated result and a deadline inside the host timeout', async () => {
    let seen: ToolContext | undefined;
    const tabs = defineTool({
      name: 'tabs',
      async handle(_params, ctx) {
        seen = ctx;
        return emptyTabs;
      },
    });
    const reply = await dispatcherWith(tabs)(call('tabs', {}, 10_000));
    expect(reply).toEqual({ type: 'result', id: 41, ok: true, result: emptyTabs });
    expect(seen?.deadline).toBe(NOW + 10_000 - DEADLINE_MARGIN_MS);
  });

  it('answers an unknown tool with unsupported_tool in phase dispatch', async () => {
    const error = errorOf(await dispatcherWith()(call('teleport')));
    expect(error.code).toBe('unsupported_tool');
    expect(error.phase).toBe('dispatch');
    expect(error.tool).toBe('teleport');
    expect(error.message).toContain('update the extension');
  });

  it('rejects bad params with invalid_arguments before the handler runs', async () => {
    let ran = false;
    const navigate = defineTool({
      name: 'navigate',
      async handle() {
        ran = true;
        return { tabId: 1, url: '', title: '', ready: true, newTab: false };
      },
    });
    const error = errorOf(await dispatcherWith(navigate)(call('navigate', { url: 'https://a.test', bogus: 1 })));
    expect(error.code).toBe('invalid_arguments');
    expect(error.details['field']).toBe('bogus');
    expect(ran).toBe(false);
  });

  it('passes a handler RelayError through, tagged with the tool', async () => {
    const tabs = defineTool({
      name: 'tabs',
      async handle() {
        throw new RelayError('target_not_found', 'Tab 3 does not exist.', { phase: 'resolve', details: { tab: 3 } });
      },
    });
    const error = errorOf(await dispatcherWith(tabs)(call('tabs')));
    expect(error).toMatchObject({ code: 'target_not_found', tool: 'tabs', phase: 'resolve', details: { tab: 3 } });
  });

  it('turns a plain Error from a handler into internal_error keeping the text', async () => {
    const tabs = defineTool({
      name: 'tabs',
      async handle() {
        throw new TypeError('cannot read x of undefined');
      },
    });
    const error = errorOf(await dispatcherWith(tabs)(call('tabs')));
    expect(error.code).toBe('internal_error');
    expect(error.details['original']).toBe('cannot read x of undefined');
  });

  it('turns a result that breaks its schema into internal_error', async () => {
    const tabs = defineTool({
      name: 'tabs',
      async handle() {
        // Simulates a handler bug the type checker cannot see (e.g. data straight from the page).
        const fromPage: unknown = JSON.parse('{"windows": "none"}');
        return fromPage as ToolResult<'tabs'>;
      },
    });
    const error = errorOf(await dispatcherWith(tabs)(call('tabs')));
    expect(error.code).toBe('internal_error');
    expect(error.phase).toBe('validate');
  });
});
