import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { AgentTabs } from './agentTabs.js';

describe('AgentTabs', () => {
  it("keeps agents' tabs through an extension reload (session storage is cleared then), and forgets them when the browser starts", async () => {
    const env = createFakeEnvironment();
    const first = new AgentTabs(env.browser);
    await first.add(7, 'opened');
    await first.add(8, 'shared');
    await first.add(7, 'child');
    env.browser.session.clear();
    const reloaded = new AgentTabs(env.browser);
    expect(await reloaded.kindOf(7)).toBe('opened');
    expect(await reloaded.kindOf(8)).toBe('shared');
    await reloaded.clear();
    expect(await new AgentTabs(env.browser).list()).toEqual([]);
  });

  it('follows a tab Chrome replaced (a discard gives it a new id), keeping how it came', async () => {
    const tabs = new AgentTabs(createFakeEnvironment().browser);
    await tabs.add(7, 'child');
    await tabs.replace(70, 7);
    await tabs.replace(80, 8);
    expect(await tabs.list()).toEqual([70]);
    expect(await tabs.kindOf(70)).toBe('child');
  });
});
