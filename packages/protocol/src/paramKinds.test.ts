import { describe, expect, it } from 'vitest';
import { paramInfos } from './paramKinds.js';
import { isHostTool, isInternalTool, probeTool, tabUseOf, TOOL_NAMES } from './toolLookup.js';
import { TOOLS } from './tools.js';

describe('param kinds, read from the schema', () => {
  it('tells flags with a value from switches, numbers from strings, lists and choices', () => {
    const byName = Object.fromEntries(paramInfos(TOOLS.click.params).map((p) => [p.name, p]));
    expect(byName.ref).toMatchObject({ kind: 'string', list: false, optional: true, description: 'Element ref from a snapshot' });
    expect(byName.x).toMatchObject({ kind: 'number' });
    expect(byName.clickCount).toMatchObject({ kind: 'integer' });
    expect(byName.button).toMatchObject({ kind: 'enum', choices: ['left', 'right', 'middle'] });
    expect(byName.modifiers).toMatchObject({ kind: 'enum', list: true, choices: ['Alt', 'Control', 'Meta', 'Shift'] });
    const snapshot = Object.fromEntries(paramInfos(TOOLS.snapshot.params).map((p) => [p.name, p]));
    expect(snapshot.interactive).toMatchObject({ kind: 'boolean', optional: true });
    expect(paramInfos(TOOLS.group_create.params).find((p) => p.name === 'name')).toMatchObject({ kind: 'string', optional: false });
    expect(paramInfos(TOOLS.tabs.params)).toEqual([]);
  });
});

describe('policies live on the entry', () => {
  it('host tools, internal tools and tab use', () => {
    expect(TOOL_NAMES.filter(isHostTool)).toEqual(['status', 'rearm']);
    expect(TOOL_NAMES.filter(isInternalTool).sort()).toEqual(['ping', 'rearm', 'restart_host']);
    for (const name of TOOL_NAMES) expect(TOOLS[name].cli === undefined, name).toBe(isInternalTool(name));
    expect(tabUseOf('navigate')).toBe('page_or_new');
    expect(tabUseOf('close')).toBe('close');
    expect(tabUseOf('lease_claim')).toBe('none');
    expect(tabUseOf('snapshot')).toBe('page');
    expect(tabUseOf('workspace_list')).toBe('none');
    expect(TOOL_NAMES.filter((n) => TOOLS[n].dialog === 'self').sort()).toEqual(['close', 'dialog']);
  });

  it("what the native host does with a call: the one probe it pings the extension with, and the swap it drains for", () => {
    expect(probeTool()).toBe('ping');
    expect(TOOL_NAMES.filter((n) => TOOLS[n].endsHost === true)).toEqual(['restart_host']);
    // Neither is answered by the host itself, nor an agent's command.
    for (const name of ['ping', 'restart_host'] as const) expect([isHostTool(name), isInternalTool(name)]).toEqual([false, true]);
  });
});
