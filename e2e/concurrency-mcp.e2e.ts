/**
 * Parallel `tools/call` clicks through one `chrome-relay mcp` server, in one tab: an MCP client may send several
 * calls at once, and each answer must still match what the page received (its own log, read over DevTools):
 * a success ran the button's handler exactly once, click_intercepted ran nothing, and nothing else ran.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type Relay } from './harness.js';
import { mcpClient, open, read, refFor, snapshot } from './helpers.js';

let relay: Relay;
let client: Client | undefined;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await client?.close().catch(() => undefined);
  await relay?.stop();
});

function connect(): Promise<Client> {
  return mcpClient(relay.env);
}

/** exit-0 equivalent, or the closed code of the relayError block. */
async function clickOutcome(mcp: Client, ref: string): Promise<string> {
  const result = await mcp.callTool({ name: 'click', arguments: { ref } });
  const text = ((result.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
  if (result.isError !== true) return 'ok';
  const block = text.split('\n').find((line) => line.startsWith('{"relayError"'));
  if (block === undefined) throw new Error(`an error without a relayError block: ${text}`);
  return (JSON.parse(block) as { relayError: { code: string } }).relayError.code;
}

const BUTTONS = [
  { id: 'b0', name: /button "Alpha"/ },
  { id: 'b1', name: /button "Bravo"/ },
  { id: 'b2', name: /button "Charlie"/ },
  { id: 't0', name: /button "Trap one"/ },
] as const;

describe('chrome-relay mcp: parallel clicks in one tab', () => {
  it('every answer of parallel tools/call clicks matches the page log, 5 rounds', async () => {
    client = await connect();
    const mcp = client;
    const tab = await open(relay, '/concurrent.html');
    const page = await relay.page(tab.path);
    for (let round = 1; round <= 5; round++) {
      const reset = await relay.cli('js', 'reset()', '--tab', String(tab.tabId));
      expect(reset.code, reset.stderr).toBe(0);
      const text = await snapshot(relay, tab.tabId);
      const outcomes = await Promise.all(BUTTONS.map((button) => clickOutcome(mcp, refFor(text, button.name).slice(1))));
      const log = await read<string[]>(page, '[...window.log]');
      const label = `round ${round}: answers ${JSON.stringify(outcomes)}, log ${JSON.stringify(log)}`;
      for (const [index, button] of BUTTONS.entries()) {
        const outcome = outcomes[index];
        expect(['ok', 'click_intercepted'], label).toContain(outcome);
        expect(log.filter((entry) => entry === button.id).length, label).toBe(outcome === 'ok' ? 1 : 0);
      }
      // The trap's cover appears as the pointer arrives: refused, and the cover heard nothing.
      expect(outcomes[BUTTONS.length - 1], label).toBe('click_intercepted');
      expect(log.filter((entry) => !BUTTONS.some((button) => button.id === entry)), label).toEqual([]);
    }
  });
});
