import { beforeAll, describe, expect, it } from 'vitest';
import { BANK_RULE, blockedFramesTab } from '../testing/blockedFrames.js';
import { checkFocusLanding, checkLanding } from './landing.js';

beforeAll(() => {
  (globalThis as { __PAGE_SCRIPT__?: string }).__PAGE_SCRIPT__ = '/* page script */';
});

/** The tab, and our world in its top document. */
async function topWorld(tab: ReturnType<typeof blockedFramesTab>) {
  return tab.worlds.ensure(tab.ctx, tab.tabId, { frameId: tab.page.frameId, loaderId: tab.page.loaderId });
}

describe('checkLanding: where input goes, against the block list', () => {
  it('refuses a point over the iframe of a blocked site, naming the point and the ref, before any input', async () => {
    const tab = blockedFramesTab();
    tab.page.objects.inputFrame = () => 'el:BANK';
    const landing = { at: { x: 10, y: 20 }, shown: { x: 110, y: 220 }, ref: 'e5' };
    await expect(checkLanding(tab.ctx, await topWorld(tab), landing)).rejects.toMatchObject({
      code: 'target_conflict',
      details: { reason: 'site_blocked', rule: BANK_RULE, origin: 'https://bank.test', x: 110, y: 220, ref: 'e5' },
    });
    expect(tab.page.calls).toEqual([{ method: 'inputFrame', args: { x: 10, y: 20 } }]);
    expect(tab.inputEvents()).toEqual([]);
  });

  it('follows the point into an open frame and refuses a blocked frame there', async () => {
    const tab = blockedFramesTab();
    const hits = ['el:OPEN', 'el:INNER'];
    tab.page.objects.inputFrame = () => hits.shift() ?? null;
    tab.debugger.handle('Runtime.callFunctionOn', () => ({ result: { type: 'object', value: { x: 3, y: 4 } } }));
    await expect(checkLanding(tab.ctx, await topWorld(tab), { at: { x: 10, y: 20 }, shown: { x: 10, y: 20 } })).rejects.toMatchObject({ details: { reason: 'site_blocked' } });
    // The second question was asked in the open frame, at the point mapped into it.
    expect(tab.page.calls.map((call) => call.args)).toEqual([{ x: 10, y: 20 }, { x: 3, y: 4 }]);
  });

  it('lets input go where no frame is, and into an open frame with nothing blocked inside', async () => {
    const tab = blockedFramesTab();
    const hits = ['el:OPEN', null];
    tab.page.objects.inputFrame = () => hits.shift() ?? null;
    await expect(checkFocusLanding(tab.ctx, tab.tabId)).resolves.toMatchObject({ tabId: tab.tabId });
    expect(tab.page.calls.map((call) => call.args)).toEqual([null, null]);
  });

  it('refuses keys while focus is inside a blocked frame', async () => {
    const tab = blockedFramesTab();
    tab.page.objects.inputFrame = () => 'el:BANK';
    await expect(checkFocusLanding(tab.ctx, tab.tabId)).rejects.toMatchObject({ details: { reason: 'site_blocked', rule: BANK_RULE } });
  });

  it('costs nothing while the person blocks no site', async () => {
    const tab = blockedFramesTab({ rules: [] });
    const sent = tab.debugger.sent.length;
    await checkFocusLanding(tab.ctx, tab.tabId);
    expect(tab.debugger.sent.length).toBe(sent);
  });
});
