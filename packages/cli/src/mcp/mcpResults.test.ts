import { describe, expect, it } from 'vitest';
import { formatErrorForStderr, parseCaps, reasonedError, RelayError, toSafeJson } from '@chrome-relay/protocol';
import { snapshotText } from '../renderSnapshot.js';
import { mcpError, mcpResult, notServed } from './mcpResults.js';
import { servedBy } from './mcpTools.js';

const words = { served: servedBy(parseCaps(undefined)).tools };
const snap = { tabId: 4, url: 'https://a.test/', title: 'A', refCount: 1, tree: [{ role: 'button', name: 'Go', ref: 'e1' }] };

describe('MCP results', () => {
  it('a snapshot: the text the CLI prints, and the --json object as structuredContent', () => {
    expect(mcpResult('snapshot', {}, snap, undefined, words)).toEqual({ content: [{ type: 'text', text: snapshotText(snap as never) }], structuredContent: snap });
  });

  it('a screenshot: an image, and the rest of the result (without the bytes) as text and structuredContent', () => {
    const shot = mcpResult('screenshot', {}, { tabId: 4, format: 'png', width: 1, height: 1, scale: 1, data: 'iVBO' }, undefined, words);
    expect(shot.content[0]).toEqual({ type: 'image', data: 'iVBO', mimeType: 'image/png' });
    expect(shot.structuredContent).toEqual({ tabId: 4, format: 'png', width: 1, height: 1, scale: 1 });
    expect(shot.content[1]).toEqual({ type: 'text', text: toSafeJson(shot.structuredContent) });
  });

  it('an action: one line of JSON without what carries nothing (structuredContent whole); with the snapshot after it, { result, snapshot } and the snapshot text', () => {
    const result = { clicked: true, tabId: 4, ref: 'e1', x: 1, y: 2, healed: false, navigated: false, url: 'https://a.test/' };
    const line = toSafeJson({ clicked: true, tabId: 4, ref: 'e1', x: 1, y: 2, url: 'https://a.test/' });
    expect(mcpResult('click', {}, result, undefined, words)).toEqual({ content: [{ type: 'text', text: line }], structuredContent: result });
    const after = mcpResult('click', {}, result, { ok: true, result: snap }, words);
    expect(after.structuredContent).toEqual({ result, snapshot: snap });
    expect(after.content).toEqual([
      { type: 'text', text: line },
      { type: 'text', text: snapshotText(snap as never) },
    ]);
  });

  it('a dialog blocking the snapshot after an action: the action stands, the note says which tool answers it', () => {
    const dialog = reasonedError('target_conflict', 'dialog_open', 'a dialog is open', { tool: 'snapshot' }).toData();
    const out = mcpResult('click', {}, { tabId: 4 }, { ok: false, error: dialog }, words);
    expect(out.isError).toBeUndefined();
    expect(out.structuredContent).toMatchObject({ result: { tabId: 4 }, snapshot: null, snapshotSkipped: expect.stringContaining('`dialog {"action": "accept"|"dismiss"}`') });
  });

  it('any other failure of the snapshot after: an error that says the action happened, with its result', () => {
    const failed = new RelayError('cdp_error', 'the page crashed', { tool: 'snapshot', phase: 'act' }).toData();
    const out = mcpResult('click', {}, { tabId: 4 }, { ok: false, error: failed }, words);
    expect(out.isError).toBe(true);
    expect(out.structuredContent).toMatchObject({ result: { tabId: 4 }, snapshot: null, relayError: { code: 'cdp_error', retryable: false, details: { after: 'click' } } });
    const message = (out.structuredContent?.relayError as { message: string }).message;
    expect(message).toContain('`click` happened (its result is above)');
    expect(message).toContain('`snapshot {"tab": 4}`');
  });
});

describe('MCP errors', () => {
  it('carry the code and details.reason as structuredContent, and the CLI lines as text, in MCP words', () => {
    const error = reasonedError('stale_ref', 'navigated', 'e12 is from before tab 3 navigated. Run `chrome-relay snapshot --tab 3` and use its refs.', { tool: 'click', phase: 'resolve' });
    const out = mcpError(error, 'click', words);
    expect(out.isError).toBe(true);
    const told = { ...error.toData(), message: 'e12 is from before tab 3 navigated. Call `snapshot {"tab": 3}` and use its refs.' };
    expect(out.structuredContent).toEqual({ relayError: told });
    expect(out.content).toEqual([{ type: 'text', text: formatErrorForStderr(told).trimEnd() }]);
  });

  it('a tool of a group not served says how to serve it; an unknown or internal one says there is none', () => {
    expect(notServed('lease_claim', words).structuredContent).toMatchObject({ relayError: { code: 'unsupported_tool', details: { group: 'tabs-admin' } } });
    expect(notServed('lease_claim', words).content[0]).toMatchObject({ text: expect.stringContaining('--caps tabs-admin') });
    for (const name of ['ping', 'nope']) expect(notServed(name, words).structuredContent).toMatchObject({ relayError: { code: 'unsupported_tool', details: { tool: name } } });
  });

  it('a list: one line per item, in MCP words; structuredContent the whole result', () => {
    const result = { tabId: 4, dropped: 0, requests: [{ id: 'R1', url: 'https://a.test/', method: 'GET', type: 'Document', status: 200, statusText: 'OK', mimeType: 'text/html', requestHeaders: {}, responseHeaders: {}, startedAt: 0, durationMs: 3, encodedBytes: 10 }] };
    const out = mcpResult('network', {}, result, undefined, { served: new Set(['network', 'network_body']) });
    expect(out.structuredContent).toEqual(result);
    expect(out.content).toEqual([{ type: 'text', text: '(id method status type url; `network_body {"id": <id>}` reads one body)\nR1 GET 200 document "https://a.test/" 3 ms' }]);
  });
});
