/** The worker's instances of the person's settings, pause switch, agent tabs, network barrier and the policy over them. */
import { chromeBrowserApi } from '../browserApi.js';
import { cdp } from '../cdp/cdpSession.js';
import { chromeOrganizeApi } from '../targeting/organizeApi.js';
import { AgentTabs } from './agentTabs.js';
import { chromeNetApi } from './chromeNet.js';
import { NetBarrier } from './netBarrier.js';
import { PauseStore } from './pause.js';
import { Policy } from './policy.js';
import { SettingsStore } from './settings.js';

export const settingsStore = new SettingsStore(chromeBrowserApi);
export const pauseStore = new PauseStore(chromeBrowserApi);
export const agentTabs = new AgentTabs(chromeBrowserApi);
export const netBarrier = new NetBarrier({
  net: chromeNetApi,
  rules: () => settingsStore.rules(),
  storage: { get: (keys) => chromeBrowserApi.storageLocalGet(keys), set: (items) => chromeBrowserApi.storageLocalSet(items) },
});
export const policy = new Policy({ browser: chromeBrowserApi, organize: chromeOrganizeApi, sessions: cdp, settings: settingsStore, pause: pauseStore, agentTabs, barrier: netBarrier });
