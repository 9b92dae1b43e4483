import { describe, expect, it } from 'vitest';
import { isToolName, MCP_CAPS, MCP_CORE_BOUNDS, parseCaps, TOOL_NAMES, TOOLS, WAIT_REPORT_MS, type McpGroup } from '@chrome-relay/protocol';
import { mcpToolList, prepareMcpCall, servedBy, serverInstructions } from './mcpTools.js';

const agentTools = TOOL_NAMES.filter((name) => TOOLS[name].internal !== true);
const groupOf = (name: string): McpGroup | undefined => (isToolName(name) ? TOOLS[name].mcp?.group : undefined);

describe('the default MCP tool list', () => {
  const tools = mcpToolList(servedBy(parseCaps(undefined)));

  it('is the core group, within its bounds of tools and characters', () => {
    expect(tools.map((t) => t.name)).toEqual(agentTools.filter((name) => groupOf(name) === 'core'));
    expect(tools.length).toBeLessThanOrEqual(MCP_CORE_BOUNDS.tools);
    expect(JSON.stringify(tools).length).toBeLessThanOrEqual(MCP_CORE_BOUNDS.characters);
  });

  it('describes each tool with its entry, short and in MCP words; annotations say only what differs from the defaults', () => {
    const click = tools.find((t) => t.name === 'click');
    expect(click).toMatchObject({ description: TOOLS.click.mcp?.description, annotations: { readOnlyHint: false, destructiveHint: false } });
    expect(click?.inputSchema).toMatchObject({ type: 'object', properties: { ref: { type: 'string' } } });
    expect(tools.find((t) => t.name === 'close')?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    expect(tools.find((t) => t.name === 'snapshot')?.annotations).toEqual({ readOnlyHint: true });
    for (const tool of tools) expect(Object.keys(tool)).toEqual(['name', 'description', 'inputSchema', 'annotations']);
  });

  it('says the shared params once: tab and a plain ref carry no description of their own; no ±2^53 bounds', () => {
    const text = JSON.stringify(tools);
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(text).not.toContain('chrome-relay tabs');
    const click = tools.find((t) => t.name === 'click')?.inputSchema.properties ?? {};
    expect(click.tab).toEqual({ type: 'integer', exclusiveMinimum: 0 });
    expect(click.ref).not.toHaveProperty('description');
    // A ref with a meaning of its own keeps it.
    expect(tools.find((t) => t.name === 'type')?.inputSchema.properties?.ref).toHaveProperty('description', 'Focus this element first');
    const instructions = serverInstructions(servedBy(parseCaps(undefined)));
    for (const shared of ['- ref:', '- tab:', '- snapshot:']) expect(instructions).toContain(shared);
  });

  it('no action has a param named snapshot of its own (the MCP-only one would hide it)', () => {
    for (const name of agentTools) {
      const output = TOOLS[name].cli?.output;
      if (output === 'action' || output === 'download') expect(Object.keys(TOOLS[name].params.shape), name).not.toContain('snapshot');
    }
  });

  it('offers snapshot on actions only; leaves out the agent (the session is the agent)', () => {
    const props = (name: string): Record<string, unknown> => tools.find((t) => t.name === name)?.inputSchema.properties ?? {};
    expect(props('click')).toHaveProperty('snapshot', { type: 'boolean' });
    expect(props('navigate')).toHaveProperty('snapshot');
    expect(props('wait')).toHaveProperty('snapshot');
    expect(props('get')).not.toHaveProperty('snapshot');
    expect(props('snapshot')).not.toHaveProperty('snapshot');
    const claim = mcpToolList(servedBy(parseCaps('tabs-admin'))).find((t) => t.name === 'lease_claim');
    expect(claim?.inputSchema.properties).not.toHaveProperty('agent');
    expect(claim?.inputSchema.required ?? []).not.toContain('agent');
  });
});

describe('--caps', () => {
  it('each group adds exactly its tools; all serves every agent tool; every agent tool is in one group', () => {
    const core: string[] = agentTools.filter((name) => groupOf(name) === 'core');
    for (const group of MCP_CAPS) {
      const names = mcpToolList(servedBy(parseCaps(group))).map((t) => t.name);
      const added = names.filter((name) => !core.includes(name));
      expect(added.length, group).toBeGreaterThan(0);
      expect(added.every((name) => groupOf(name) === group), group).toBe(true);
      expect(names.filter((name) => core.includes(name))).toEqual(core);
    }
    expect(mcpToolList(servedBy(parseCaps('all'))).map((t) => t.name)).toEqual(agentTools);
    expect(agentTools.every((name) => groupOf(name) !== undefined)).toBe(true);
  });

  it('names an unknown group and the groups there are', () => {
    expect(() => parseCaps('network,nope')).toThrow(expect.objectContaining({ code: 'invalid_arguments', details: expect.objectContaining({ field: 'caps', unknown: ['nope'] }) }));
    expect(parseCaps(' network , record ')).toEqual(['core', 'network', 'record']);
  });

  it('the instructions name the groups not served, and no others', () => {
    const text = serverInstructions(servedBy(parseCaps('network')));
    expect(text).toContain('--caps');
    expect(text).toContain('- record:');
    expect(text).not.toContain('- network:');
    expect(serverInstructions(servedBy(parseCaps('all')))).not.toContain('--caps');
  });
});

describe('model-facing descriptions', () => {
  it('are short and speak no shell', () => {
    for (const name of agentTools) {
      const description = TOOLS[name].mcp?.description ?? '';
      expect(description.length, name).toBeGreaterThan(10);
      expect(description.length, name).toBeLessThanOrEqual(140);
      expect(description, name).not.toMatch(/`chrome-relay|--[a-z]|@e\d/);
    }
  });
});

describe('an MCP call', () => {
  it('gets the session as its agent where the tool takes one', () => {
    expect(prepareMcpCall('lease_claim', { tab: 3 }, 'mcp-1').params).toEqual({ tab: 3, agent: 'mcp-1' });
    expect(prepareMcpCall('click', { ref: 'e1' }, 'mcp-1').params).toEqual({ ref: 'e1' });
  });

  it('takes snapshot out of an action\'s params into the call (the CLI\'s --snapshot); anything but a boolean is invalid', () => {
    expect(prepareMcpCall('click', { ref: 'e1', snapshot: true }, 'a')).toMatchObject({ params: { ref: 'e1' }, snapshot: {} });
    expect(prepareMcpCall('click', { ref: 'e1', snapshot: false }, 'a')).toMatchObject({ params: { ref: 'e1' }, snapshot: undefined });
    expect(() => prepareMcpCall('click', { ref: 'e1', snapshot: 'yes' }, 'a')).toThrow(expect.objectContaining({ code: 'invalid_arguments', details: { field: 'snapshot' } }));
    // Not an action: the param stays, and the tool's own schema refuses it.
    expect(prepareMcpCall('get', { what: 'title', snapshot: true }, 'a').params).toHaveProperty('snapshot', true);
  });

  it('wait keeps its own budget and the deadline goes around it', () => {
    expect(prepareMcpCall('wait', { text: 'x', timeoutMs: 2000 }, 'a')).toMatchObject({ params: { text: 'x', timeoutMs: 2000 }, timeoutMs: 2000 + WAIT_REPORT_MS });
  });
});
