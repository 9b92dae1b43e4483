import { parseResult } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { tabsTool } from './tabs.js';

describe('tabs', () => {
  it('lists normal and popup windows with their tabs, in a shape the schema accepts', async () => {
    const env = createFakeEnvironment();
    const main = [...env.browser.windows.keys()][0] ?? 0;
    env.browser.addTab({ windowId: main, url: 'https://a.test/', title: 'A', active: true });
    const popup = env.browser.addWindow({ type: 'popup' });
    env.browser.addTab({ windowId: popup, url: 'https://b.test/' });
    const result = parseResult('tabs', await tabsTool.handle({}, env.ctx));
    expect(result.windows.map((w) => [w.type, w.tabs.map((t) => t.url)])).toEqual([
      ['normal', ['https://a.test/']],
      ['popup', ['https://b.test/']],
    ]);
    expect(result.windows[0]?.tabs[0]).toMatchObject({ title: 'A', active: true, index: 0, status: 'complete', groupId: -1 });
  });
});
