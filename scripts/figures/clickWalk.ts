// One `click @e12` through the extension's worker, traced: what scripts/floorFigures.mjs prints as "a click's walk".
// Run by that script only, bundled with every extension source file instrumented (each function records, when it
// is called, the file it lives in: scripts/figures/walkPlugin.mjs), and from the revision being measured (its files
// copied beside this one), so two revisions are measured by the same steps.
//
// The click runs as the worker runs it — the dispatcher with the person's limits (Policy over the fakes), the tool
// registry, the services the composition root builds — over the fake browser, debugger and page of the unit tests. A
// first click warms the tab up (debugger attached, page script installed, our world made); the second is the one
// measured. Printed as JSON: registry lookups, chrome.tabs.get calls, and the walk (the files entered, in order).
import { createDispatcher } from '../../packages/extension/src/dispatcher.js';
import { AgentTabs } from '../../packages/extension/src/policy/agentTabs.js';
import { PauseStore } from '../../packages/extension/src/policy/pause.js';
import { Policy } from '../../packages/extension/src/policy/policy.js';
import { SettingsStore } from '../../packages/extension/src/policy/settings.js';
import { createFakeEnvironment } from '../../packages/extension/src/testing/fakeChrome.js';
import { fakeAgentPages } from '../../packages/extension/src/testing/fakeLifecycle.js';
import { fakeBarrier } from '../../packages/extension/src/testing/fakeNet.js';
import { fakeOrganize } from '../../packages/extension/src/testing/fakeOrganize.js';
import { FakePages } from '../../packages/extension/src/testing/fakePage.js';
import { TOOL_REGISTRY } from '../../packages/extension/src/tools/index.js';

interface Walker {
  on: boolean;
  files: string[];
}
const walker = (globalThis as unknown as { __walker: Walker }).__walker;

(globalThis as { __PAGE_SCRIPT__?: string }).__PAGE_SCRIPT__ = '/* page script */';

const env = createFakeEnvironment({ deadlineMs: 60_000 });
const pages = new FakePages(env.debugger);
const tabId = env.browser.addTab({ active: true, url: 'https://shop.test/' }).id ?? 0;
const delivered = ['pointerover', 'pointermove', 'pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'].map((type) => ({
  type,
  phase: type.includes('over') || type.includes('move') ? ('pointer' as const) : type.includes('down') ? ('press' as const) : ('release' as const),
  ok: true,
}));
const page = pages.open(tabId, {
  prepareClick: () => ({ status: 'ok', x: 40, y: 12, healed: false, hitTest: 'passed', viewport: { width: 800, height: 600 }, token: 't1' }),
  deliveryReport: () => ({ armed: true, events: delivered }),
});
page.installed = true;

const organize = fakeOrganize(env.browser);
const settings = new SettingsStore(env.browser);
const pause = new PauseStore(env.browser);
const agentTabs = new AgentTabs(env.browser);
const { barrier } = fakeBarrier(env.browser, () => settings.rules());
const { pages: agentPages } = fakeAgentPages(env.browser, barrier, agentTabs, pause);
const policy = new Policy({ browser: env.browser, organize, sessions: env.cdp, settings, pause, agentTabs, barrier, pages: agentPages });
await settings.save({ ...(await settings.get()), agentTabsOnly: true });
await agentTabs.add(tabId, 'opened');

const services = env.ctx;
const registry = services.registry;
await registry.replaceTab(tabId, { frameId: page.frameId, loaderId: page.loaderId }, [{ ref: 'e12', role: 'button', name: 'Buy' }]);
let lookups = 0;
const lookup = registry.lookup.bind(registry);
registry.lookup = (ref) => {
  lookups++;
  return lookup(ref);
};

const dispatch = createDispatcher({ tools: TOOL_REGISTRY, services, policy });
const click = () => dispatch({ type: 'call', id: 1, tool: 'click', params: { ref: 'e12' }, timeoutMs: 30_000 });

const warm = await click();
if (warm.type !== 'result') throw new Error(`the warm-up click failed: ${JSON.stringify(warm)}`);
lookups = 0;
const tabsGetBefore = env.browser.calls.filter((call) => call === 'getTab').length;
walker.files = [];
walker.on = true;
const reply = await click();
walker.on = false;
if (reply.type !== 'result') throw new Error(`the measured click failed: ${JSON.stringify(reply)}`);
const tabsGet = env.browser.calls.filter((call) => call === 'getTab').length - tabsGetBefore;
console.log(JSON.stringify({ lookups, tabsGet, walk: walker.files }));
