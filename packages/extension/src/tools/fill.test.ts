import { beforeAll, describe, expect, it } from 'vitest';
import { BANK_RULE, blockedFramesTab } from '../testing/blockedFrames.js';
import { fillTool } from './fill.js';
import { runTool } from '../testing/toolContext.js';

beforeAll(() => {
  (globalThis as { __PAGE_SCRIPT__?: string }).__PAGE_SCRIPT__ = '/* page script */';
});

describe('fill and the site block list', () => {
  async function field(api: Parameters<typeof blockedFramesTab>[0] = {}) {
    const tab = blockedFramesTab({ api: { fill: () => ({ status: 'typing', plan: 'typed', healed: false }), value: () => ({ status: 'ok', value: 'hello', secret: false, healed: false }), ...api?.api } });
    await tab.registry.replaceTab(tab.tabId, { frameId: tab.page.frameId, loaderId: tab.page.loaderId }, [{ ref: 'e3', role: 'textbox', name: 'Name' }]);
    return tab;
  }

  it('types nothing when the page moved focus into a frame of a blocked site (its own focus handler can)', async () => {
    const tab = await field();
    tab.page.objects.inputFrame = () => 'el:BANK';
    await expect(runTool(fillTool, { ref: 'e3', value: 'hello' }, tab.ctx)).rejects.toMatchObject({ code: 'target_conflict', details: { reason: 'site_blocked', rule: BANK_RULE } });
    expect(tab.inputEvents()).toEqual([]);
  });

  it('types into the field when focus stayed in the page', async () => {
    const tab = await field();
    tab.page.objects.inputFrame = () => null;
    await expect(runTool(fillTool, { ref: 'e3', value: 'hello' }, tab.ctx)).resolves.toMatchObject({ ref: 'e3', value: 'hello' });
    expect(tab.inputEvents()).toEqual(['Input.insertText']);
  });
});
