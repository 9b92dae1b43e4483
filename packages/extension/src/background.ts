/**
 * Service-worker entry: wiring only. Everything here runs synchronously at the top level because
 * Chrome only wakes a stopped worker for listeners registered that way, and each wake-up is our
 * chance to re-open the native port (CHROMIUM.md: a killed worker does not restart by itself; any
 * event with a top-level listener brings it and a new host back). State that must outlive the
 * worker is in chrome.storage.session, never here.
 */
import { chromeBrowserApi } from './browserApi.js';
import { cdp } from './cdp/cdpSession.js';
import { createDispatcher } from './dispatcher.js';
import { chromeHello, connectChromeNative, createHostPort } from './hostPort.js';
import { notifyTabClosed } from './targets.js';
import { TOOL_REGISTRY } from './tools/index.js';
import { targetingContext } from './targeting/index.js';
import { captures } from './observe/captures.js';
import { setRestartHostHandler } from './tools/restartHost.js';
import { armWatchdog, chromeWatchdogApis } from './watchdog.js';

const hostPort = createHostPort({
  connect: connectChromeNative,
  dispatch: createDispatcher({ tools: TOOL_REGISTRY, cdp, browser: chromeBrowserApi, targeting: targetingContext }),
  hello: chromeHello,
});
const wake = (): void => hostPort.ensureConnected();
setRestartHostHandler((delayMs) => hostPort.reconnect(delayMs));

cdp.start();
// Console/network capture starts on attach, so `network` after `navigate` shows the navigation.
cdp.onSessionPrepare((tabId, send) => captures.arm(tabId, send));
cdp.on(wake);
cdp.onDetached(wake);

chrome.tabs.onUpdated.addListener(wake);
chrome.tabs.onActivated.addListener(wake);
chrome.tabs.onRemoved.addListener((tabId) => {
  // Chrome also fires debugger.onDetach for attached tabs, but not for tabs we merely remember.
  cdp.forgetTab(tabId);
  notifyTabClosed(tabId);
  wake();
});
chrome.runtime.onStartup.addListener(wake);
chrome.runtime.onInstalled.addListener(wake);

// The alarm is the wake-up of last resort when nothing else happens (watchdog.ts: 1 s unpacked, 30 s packed).
chrome.alarms.onAlarm.addListener(wake);
void armWatchdog(chromeWatchdogApis).catch((error: unknown) => console.error('chrome-relay: could not arm the watchdog alarm', error));

hostPort.ensureConnected();
