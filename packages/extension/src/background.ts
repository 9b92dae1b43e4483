/**
 * Service-worker entry and the composition root: every service of the worker is built here, once, and handed down —
 * no module below keeps an instance of its own (packages/extension/floors.mjs puts this file on the top floor, so
 * nothing imports it). Everything runs synchronously at the top level because Chrome only wakes a stopped worker for
 * listeners registered that way, and each wake-up is our chance to re-open the native port (CHROMIUM.md: a killed
 * worker does not restart by itself; any event with a top-level listener brings it and a new host back). State that
 * must outlive the worker is in chrome.storage, never here.
 */
import { ActivityLog } from './activity/activityLog.js';
import { chromeActionApi, Indicator } from './activity/indicator.js';
import type { Services } from './actions/toolContext.js';
import { SnapshotHistory } from './actions/snapshotHistory.js';
import { chromeBrowserApi, setOpenGuard } from './browserApi.js';
import { imageSize, offscreenRender } from './capture/frameImage.js';
import { Recorder } from './capture/recorder.js';
import { createFrameMasker } from './capture/recordMask.js';
import { TabDrawing } from './capture/screencast.js';
import { CdpSessions, chromeDebuggerTransport } from './cdp/cdpSession.js';
import { createDispatcher } from './dispatcher.js';
import { chromeHello, connectChromeNative, createHostPort, type HostLink } from './hostPort.js';
import { TabCaptures } from './observe/captures.js';
import { wireCaptures } from './observe/wire.js';
import { chromeOrganizeApi } from './organizeApi.js';
import { FrameSessions } from './page/frames.js';
import { scanListeners } from './page/listeners.js';
import { MainFrames } from './page/mainFrames.js';
import { DEFAULT_NAVIGATION_TIMING } from './page/navigation.js';
import { Worlds } from './page/worlds.js';
import { DialogTracker } from './pageState/dialogs.js';
import { chromeDownloadsApi, DownloadTracker } from './pageState/downloads.js';
import { NetworkActivity } from './pageState/networkIdle.js';
import { AgentPages } from './policy/agentPages.js';
import { AgentTabs } from './policy/agentTabs.js';
import { chromeLifecycleApi } from './policy/chromeLifecycle.js';
import { chromeNetApi } from './policy/chromeNet.js';
import { NetBarrier } from './policy/netBarrier.js';
import { PauseStore, type PauseState } from './policy/pause.js';
import { Policy } from './policy/policy.js';
import { SettingsStore } from './policy/settings.js';
import { RefCounter } from './refs/counter.js';
import { chromeLocalStore, chromeSessionStore } from './refs/persist.js';
import { RefRegistry } from './refs/registry.js';
import { TabLocks } from './refs/tabLocks.js';
import { createTargetingContext } from './targeting/context.js';
import { LeaseStore } from './targeting/leases.js';
import { WorkspaceStore } from './targeting/workspaces.js';
import { TOOL_REGISTRY } from './tools/index.js';
import { createUiService } from './ui/uiService.js';
import { uiMessageListener } from './ui/uiMessages.js';
import { armWatchdog, chromeWatchdogApis } from './watchdog.js';

const logError = (what: string) => (error: unknown) => console.error(`chrome-relay: ${what}`, error);

// The debugger and Chrome's tab APIs.
const browser = chromeBrowserApi;
const cdp = new CdpSessions(chromeDebuggerTransport);

// The person's limits: settings, the pause switch, agent tabs, the network barrier, and the policy over them.
const settings = new SettingsStore(browser);
const pause = new PauseStore(browser);
const agentTabs = new AgentTabs(browser);
const netBarrier = new NetBarrier({
  net: chromeNetApi,
  rules: () => settings.rules(),
  storage: { get: (keys) => browser.storageLocalGet(keys), set: (items) => browser.storageLocalSet(items) },
});
const agentPages = new AgentPages({ api: chromeLifecycleApi, barrier: netBarrier, agentTabs, paused: async () => (await pause.get()).paused });
const policy = new Policy({ browser, organize: chromeOrganizeApi, sessions: cdp, settings, pause, agentTabs, barrier: netBarrier, pages: agentPages });

// Refs, the page's documents and frames, what the page is doing, captures.
const registry = new RefRegistry(chromeSessionStore);
const worlds = new Worlds(chromeSessionStore);
const frames = new FrameSessions(() => settings.rules());
frames.listen(cdp);
const captures = new TabCaptures();
wireCaptures(cdp, captures);
const drawing = new TabDrawing();
const recorder = new Recorder(createFrameMasker(frames), drawing);
// Subscribed now, synchronously: dialog and download events that wake the worker must find their listeners.
const dialogs = new DialogTracker(cdp, browser);
const downloads = new DownloadTracker(cdp, chromeDownloadsApi);

// Leases, workspaces and tab groups, and the context a call is resolved in.
const leases = new LeaseStore(browser);
const workspaces = new WorkspaceStore(browser, chromeOrganizeApi);
const targeting = createTargetingContext({
  browser,
  organize: chromeOrganizeApi,
  leases,
  workspaces,
  refs: registry,
  // The person's groups are not the agent's to see, by list or by name: the same verdict as `group list`.
  seesGroup: (tabIds) => policy.seesGroup(tabIds),
});

const activity = new ActivityLog(browser);
const indicator = new Indicator(chromeActionApi);
let hostLink: HostLink = { connected: false, host: null };
/** The person's pause as the host reports it (`status`, doctor); kept here because a hello is built synchronously. */
let pausedSince: number | null = null;
/** Whether agents through a bridge may act (the options), told to the host for the tools it answers itself. */
let remoteAgents = true;

const services: Services = {
  cdp,
  browser,
  registry,
  counter: new RefCounter(chromeLocalStore),
  worlds,
  frames,
  mainFrames: new MainFrames(cdp),
  dialogs,
  downloads,
  network: new NetworkActivity(cdp),
  captures,
  recorder,
  drawing,
  render: offscreenRender,
  imageSize,
  targeting,
  navigation: DEFAULT_NAVIGATION_TIMING,
  snapshotLocks: new TabLocks(),
  snapshotHistory: new SnapshotHistory(chromeSessionStore),
  scanListeners,
  restartHost: (delayMs) => hostPort.reconnect(delayMs),
};

const hostPort = createHostPort({
  connect: connectChromeNative,
  dispatch: createDispatcher({ tools: TOOL_REGISTRY, services, policy, activity }),
  hello: () => chromeHello(pausedSince, remoteAgents),
  onStatus: (status) => {
    hostLink = status;
    indicator.update({ connected: status.connected });
  },
});
const wake = (): void => hostPort.ensureConnected();

cdp.start();
// Console/network capture starts on attach, so `network` after `navigate` shows the navigation.
cdp.onSessionPrepare((tabId, send) => captures.arm(tabId, send));
// Agent tabs draw at full rate while a session works in them (capture/screencast.ts TabDrawing).
cdp.onSessionPrepare((tabId, send) => drawing.keep(tabId, send));
cdp.onDetached((tabId) => drawing.ended(tabId));
cdp.on(wake);
cdp.onDetached(wake);
// The person's limits: no session while paused, on an extension's page or on a blocked site, whoever asks for one;
// every tab chrome-relay opens is an agent tab under the network barrier before anything loads in it.
cdp.setAttachGuard((tabId) => policy.guardAttach(tabId));
setOpenGuard((open, tabIdOf) => policy.openTab(open, tabIdOf));
// Idle detach must not drop a session something still needs (cdp/idleDetach.ts).
cdp.keepAttachedIf(async (tabId) => {
  if (recorder.isRecording(tabId)) return true;
  if (downloads.nextUnreported(tabId)?.state === 'inProgress') return true;
  return (await dialogs.current(tabId)) !== undefined;
});
// Loading the settings applies the idle time (policy listens) and the icon shows a standing pause.
settings.get().catch(logError('reading the settings failed'));
const pauseChanged = (state: PauseState): void => {
  indicator.update({ paused: state.paused });
  pausedSince = state.paused ? state.since : null;
  hostPort.greet();
};
pause.onChange(pauseChanged);
settings.onChange((current) => {
  if (current.remoteAgents === remoteAgents) return;
  remoteAgents = current.remoteAgents;
  hostPort.greet();
});
pause.get().then(pauseChanged, logError('reading the pause state failed'));
activity.onFinish(() => indicator.update({ lastActivityAt: activity.lastActivityAt() }));
indicator.update({ connected: false });

const ui = createUiService({
  browser,
  sessions: cdp,
  leases,
  activity,
  policy,
  pause,
  settings,
  hostStatus: () => hostLink,
  agentTabs,
});
chrome.runtime.onMessage.addListener(uiMessageListener(() => chrome.runtime.id, () => chrome.runtime.getURL(''), ui));

chrome.tabs.onCreated.addListener((tab) => {
  netBarrier.tabCreated(tab).catch(logError('classifying a new tab for the network barrier failed'));
});
// A window a page opened is its source tab's: an agent tab's is the agents' too. Chrome names its source here, before
// the window navigates, not through the tab's opener (which is also set for a tab the person opens while an agent
// tab is in front, and is the active tab rather than the source for a window a background tab opens).
chrome.webNavigation.onCreatedNavigationTarget.addListener((details) => {
  netBarrier.navigationTarget(details.sourceTabId, details.tabId).catch(logError('classifying a window a page opened failed'));
  policy
    .navigationTargetCreated(details.sourceTabId, details.tabId)
    .then(() => agentPages.tabsChanged())
    .catch(logError('recording a window an agent tab opened failed'));
});
chrome.webNavigation.onBeforeNavigate.addListener((details) => {
  netBarrier.navigationStarted(details.tabId, details.frameId).catch(logError('classifying a new tab for the network barrier failed'));
  if (details.frameId === 0) agentPages.personNavigates(details.tabId, details.url).catch(logError('releasing paused workers for the person failed'));
});
chrome.webNavigation.onCommitted.addListener((details) => {
  netBarrier.committed(details.tabId, details.frameId, details.url).catch(logError('following a page of an agent tab failed'));
});
chrome.webNavigation.onErrorOccurred.addListener((details) => {
  netBarrier.navigationFailed(details.tabId, details.frameId, details.error, details.url).catch(logError('loading a page of the person again failed'));
});
chrome.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url !== undefined) policy.tabUrlChanged(tabId, change.url).catch(logError('checking a navigation against the block list failed'));
  wake();
});
chrome.tabs.onActivated.addListener(() => {
  // A paused agent tab Chrome unfroze while it was in view is frozen again once it is not.
  agentPages.tabsChanged().catch(logError('freezing a paused agent tab again failed'));
  wake();
});
/** Everything kept per tab goes with it: refs answer "tab closed", a lease dies with its tab. */
function forgetTab(tabId: number): void {
  // Chrome also fires debugger.onDetach for attached tabs, but not for tabs we merely remember.
  cdp.forgetTab(tabId);
  worlds.forget(tabId);
  registry.forgetTab(tabId).catch(logError('forgetting the refs of a closed tab failed'));
  leases.dropTab(tabId).catch(logError('dropping the leases of a closed tab failed'));
  captures.forget(tabId);
  recorder.discard(tabId);
  agentTabs.remove(tabId).catch(logError('forgetting a closed agent tab failed'));
  activity.forgetTab(tabId).catch(logError('forgetting a closed tab in the activity log failed'));
}
chrome.tabs.onRemoved.addListener((tabId) => {
  forgetTab(tabId);
  netBarrier.tabRemoved(tabId).catch(logError('forgetting a closed tab in the network barrier failed'));
  wake();
});
// A discarded tab lives on under a new id (Chrome's memory saver, or the person taking a tab back): the old id is
// dead, and the barrier follows the tab.
chrome.tabs.onReplaced.addListener((addedTabId, removedTabId) => {
  agentTabs.replace(addedTabId, removedTabId).catch(logError('following a replaced agent tab failed'));
  forgetTab(removedTabId);
  netBarrier.tabReplaced(addedTabId, removedTabId).catch(logError('following a replaced tab in the network barrier failed'));
  wake();
});
chrome.runtime.onStartup.addListener(() => {
  // A new browser run: no tab the agents had is open any more (their ids are not reused).
  agentTabs.clear().catch(logError('forgetting the last run\'s agent tabs failed'));
  netBarrier.forgetAll().catch(logError('forgetting the last run\'s covered tabs failed'));
  wake();
});
chrome.runtime.onInstalled.addListener(wake);

// The alarm is the wake-up of last resort when nothing else happens (watchdog.ts: 1 s unpacked, 30 s packed).
chrome.alarms.onAlarm.addListener(wake);
void armWatchdog(chromeWatchdogApis).catch((error: unknown) => console.error('chrome-relay: could not arm the watchdog alarm', error));

hostPort.ensureConnected();
