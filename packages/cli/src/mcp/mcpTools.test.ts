import { describe, expect, it } from 'vitest';
import { formatErrorForStderr, reasonedError, reasonsOf, TOOL_NAMES, TOOLS, WAIT_REPORT_MS } from '@chrome-relay/protocol';
import { snapshotText } from '../renderSnapshot.js';
import { mcpError, mcpResult, mcpToolList, prepareMcpCall } from './mcpTools.js';

describe('the MCP tool list', () => {
  const tools = mcpToolList();
  it('is every non-internal entry, described by the entry', () => {
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES.filter((n) => TOOLS[n].internal !== true));
    const click = tools.find((t) => t.name === 'click');
    expect(click).toMatchObject({ title: TOOLS.click.cli?.summary, description: TOOLS.click.description, annotations: { readOnlyHint: false, destructiveHint: false } });
    expect(click?.inputSchema).toMatchObject({ type: 'object', properties: { ref: { type: 'string' } } });
    expect(tools.find((t) => t.name === 'close')?.annotations.destructiveHint).toBe(true);
    expect(tools.find((t) => t.name === 'snapshot')?.annotations.readOnlyHint).toBe(true);
  });

  it('leaves out the agent: the session is the agent', () => {
    const claim = tools.find((t) => t.name === 'lease_claim');
    expect(claim?.inputSchema.properties).not.toHaveProperty('agent');
    expect(claim?.inputSchema.required ?? []).not.toContain('agent');
    expect(prepareMcpCall('lease_claim', { tab: 3 }, 'mcp-1').params).toEqual({ tab: 3, agent: 'mcp-1' });
    expect(prepareMcpCall('click', { ref: 'e1' }, 'mcp-1').params).toEqual({ ref: 'e1' });
  });

  it('wait keeps its own budget and the deadline goes around it', () => {
    expect(prepareMcpCall('wait', { text: 'x', timeoutMs: 2000 }, 'a')).toEqual({ params: { text: 'x', timeoutMs: 2000 }, timeoutMs: 2000 + WAIT_REPORT_MS });
  });
});

describe('MCP results', () => {
  it('a snapshot is the text the CLI prints; a screenshot an image; a failure the CLI\'s error lines', () => {
    const snap = { tabId: 4, url: 'https://a.test/', title: 'A', refCount: 1, tree: [{ role: 'button', name: 'Go', ref: 'e1' }] };
    expect(mcpResult('snapshot', {}, snap).content).toEqual([{ type: 'text', text: snapshotText(snap as never) }]);
    const shot = mcpResult('screenshot', {}, { tabId: 4, format: 'png', width: 1, height: 1, scale: 1, data: 'iVBO' });
    expect(shot.content[0]).toEqual({ type: 'image', data: 'iVBO', mimeType: 'image/png' });
    const [reason] = reasonsOf('stale_ref');
    if (reason === undefined) throw new Error('stale_ref has reasons');
    const error = reasonedError('stale_ref', reason, 'gone', { tool: 'click', phase: 'resolve' });
    expect(mcpError(error, 'click')).toEqual({ isError: true, content: [{ type: 'text', text: formatErrorForStderr(error.toData()).trimEnd() }] });
  });
});
