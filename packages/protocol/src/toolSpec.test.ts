import { describe, expect, it } from 'vitest';
import { TOOL_NAMES } from './toolLookup.js';
import { TOOLS } from './tools.js';

/** A param's name as the schema holds it (click's params are a refined object: its shape is underneath). */
function paramNames(name: (typeof TOOL_NAMES)[number]): string[] {
  return Object.keys(TOOLS[name].params.shape);
}

describe('the fields the gate reads from an entry name params the tool really has', () => {
  it.each(TOOL_NAMES.filter((name) => TOOLS[name].reaches !== undefined || TOOLS[name].agentCode !== undefined || TOOLS[name].loads !== undefined))('%s', (name) => {
    const entry = TOOLS[name];
    const names = paramNames(name);
    for (const param of Object.values(entry.reaches ?? {})) expect(names).toContain(param);
    if (entry.agentCode !== undefined) expect(names).toContain(entry.agentCode);
    if (entry.loads === 'url') expect(names).toContain('url');
  });

  it('every tool whose params name tab ids, a group or a workspace it changes says so (reaches), or acts in a tab it is given', () => {
    for (const name of TOOL_NAMES) {
      const names = paramNames(name);
      const namesTabs = names.includes('tabs') || (names.includes('workspace') && TOOLS[name].leases !== 'exempt');
      // close's tabs are its call's tabs (tabUse close); the rest must declare what they reach.
      if (namesTabs && TOOLS[name].tabUse !== 'close') expect(TOOLS[name].reaches, name).toBeDefined();
    }
  });
});
