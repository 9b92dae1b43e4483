/**
 * Service-worker entry: wiring only. Everything here runs synchronously at the top level because
 * Chrome only wakes a stopped worker for listeners registered that way, and each wake-up is our
 * chance to re-open the native port (CHROMIUM.md: a killed worker does not restart by itself; any
 * event with a top-level listener brings it and a new host back). State that must outlive the
 * worker is in chrome.storage.session, never here.
 */
import { ActivityLog } from './activity/activityLog.js';
import { chromeActionApi, Indicator } from './activity/indicator.js';
import { chromeBrowserApi, setOpenGuard } from './browserApi.js';
import { cdp } from './cdp/cdpSession.js';
import { createDispatcher } from './dispatcher.js';
import { chromeHello, connectChromeNative, createHostPort, type HostLink } from './hostPort.js';
import { dialogTracker } from './pageState/dialogs.js';
import { downloadTracker } from './pageState/downloads.js';
import { agentTabs, netBarrier, pauseStore, policy, settingsStore } from './policy/index.js';
import type { PauseState } from './policy/pause.js';
import { notifyTabClosed } from './targets.js';
import { TOOL_REGISTRY } from './tools/index.js';
import { leaseStore, targetingContext } from './targeting/index.js';
import { captures } from './observe/captures.js';
import { recorder } from './tools/observe/record.js';
import { setRestartHostHandler } from './tools/restartHost.js';
import { createUiService } from './ui/uiService.js';
import { uiMessageListener } from './ui/uiMessages.js';
import { armWatchdog, chromeWatchdogApis } from './watchdog.js';

const logError = (what: string) => (error: unknown) => console.error(`chrome-relay: ${what}`, error);

const activity = new ActivityLog(chromeBrowserApi);
const indicator = new Indicator(chromeActionApi);
let hostLink: HostLink = { connected: false, host: null };
/** The person's pause as the host reports it (`status`, doctor); kept here because a hello is built synchronously. */
let pausedSince: number | null = null;

const hostPort = createHostPort({
  connect: connectChromeNative,
  dispatch: createDispatcher({ tools: TOOL_REGISTRY, cdp, browser: chromeBrowserApi, targeting: targetingContext, policy, activity }),
  hello: () => chromeHello(pausedSince),
  onStatus: (status) => {
    hostLink = status;
    indicator.update({ connected: status.connected });
  },
});
const wake = (): void => hostPort.ensureConnected();
setRestartHostHandler((delayMs) => hostPort.reconnect(delayMs));

cdp.start();
// Console/network capture starts on attach, so `network` after `navigate` shows the navigation.
cdp.onSessionPrepare((tabId, send) => captures.arm(tabId, send));
cdp.on(wake);
cdp.onDetached(wake);
// The person's limits: no session while paused, on an extension's page or on a blocked site, whoever asks for one;
// every tab chrome-relay opens is an agent tab under the network barrier before anything loads in it.
cdp.setAttachGuard((tabId) => policy.guardAttach(tabId));
setOpenGuard((open, tabIdOf) => policy.openTab(open, tabIdOf));
// Idle detach must not drop a session something still needs (cdp/idleDetach.ts).
cdp.keepAttachedIf(async (tabId) => {
  if (recorder.isRecording(tabId)) return true;
  if (downloadTracker({ cdp }).nextUnreported(tabId)?.state === 'inProgress') return true;
  return (await dialogTracker({ cdp, browser: chromeBrowserApi }).current(tabId)) !== undefined;
});
// Loading the settings applies the idle time (policy listens) and the icon shows a standing pause.
settingsStore.get().catch(logError('reading the settings failed'));
const pauseChanged = (state: PauseState): void => {
  indicator.update({ paused: state.paused });
  pausedSince = state.paused ? state.since : null;
  hostPort.greet();
};
pauseStore.onChange(pauseChanged);
pauseStore.get().then(pauseChanged, logError('reading the pause state failed'));
activity.onFinish(() => indicator.update({ lastActivityAt: activity.lastActivityAt() }));
indicator.update({ connected: false });

const ui = createUiService({
  browser: chromeBrowserApi,
  sessions: cdp,
  leases: leaseStore,
  activity,
  policy,
  pause: pauseStore,
  settings: settingsStore,
  hostStatus: () => hostLink,
  agentTabs,
});
chrome.runtime.onMessage.addListener(uiMessageListener(() => chrome.runtime.id, () => chrome.runtime.getURL(''), ui));

chrome.tabs.onCreated.addListener((tab) => {
  netBarrier.tabCreated(tab).catch(logError('classifying a new tab for the network barrier failed'));
});
// A window an agent tab's page opened (window.open, target=_blank) is the agents' too. Chrome names its source
// here, not through the tab's opener (which is also set for a tab the person opens while an agent tab is in front).
chrome.webNavigation.onCreatedNavigationTarget.addListener((details) => {
  policy.navigationTargetCreated(details.sourceTabId, details.tabId).catch(logError('recording a window an agent tab opened failed'));
});
chrome.webNavigation.onCommitted.addListener((details) => {
  netBarrier.committed(details.tabId, details.frameId, details.url).catch(logError('following a page of an agent tab failed'));
});
chrome.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url !== undefined) policy.tabUrlChanged(tabId, change.url).catch(logError('checking a navigation against the block list failed'));
  wake();
});
chrome.tabs.onActivated.addListener(wake);
chrome.tabs.onRemoved.addListener((tabId) => {
  // Chrome also fires debugger.onDetach for attached tabs, but not for tabs we merely remember.
  cdp.forgetTab(tabId);
  notifyTabClosed(tabId);
  agentTabs.remove(tabId).catch(logError('forgetting a closed agent tab failed'));
  netBarrier.tabRemoved(tabId).catch(logError('forgetting a closed tab in the network barrier failed'));
  activity.forgetTab(tabId).catch(logError('forgetting a closed tab in the activity log failed'));
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
