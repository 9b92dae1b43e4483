/**
 * The wake-up of last resort: an alarm whose listener re-opens the native port. A service worker that dies
 * while idle (killed, crashed) is not restarted by Chrome, and nothing the host or the CLI can do reaches a
 * dead worker: the host exits with it (its stdin closes), and a local process cannot raise an extension
 * event in someone's running browser (`--native-messaging-connect-*`, the one designed path, is behind a
 * feature flag Chrome ships disabled). So the alarm is what brings it back, as fast as Chrome allows:
 * every second for an unpacked extension (`chrome-relay launch`, development), every 30 s — Chrome's
 * minimum for packed MV3 extensions — for an installed one. The CLI's no-host message says that wait.
 *
 * Measured (Chromium 156 headless, worker closed over DevTools while idle, 3 rounds): a new host and a
 * working `tabs` 0.9–1.5 s later unpacked, against up to 30 s (25.6 s seen) with the 30-s alarm alone.
 */

export const WATCHDOG_ALARM = 'watchdog';
/** Chrome's minimum alarm periods (extensions/browser/api/alarms/alarms_api_constants.h). */
export const UNPACKED_PERIOD_MINUTES = 1 / 60;
export const PACKED_PERIOD_MINUTES = 0.5;

export interface WatchdogApis {
  getAlarm(name: string): Promise<{ periodInMinutes?: number | undefined } | undefined>;
  createAlarm(name: string, periodInMinutes: number): Promise<void>;
  /** chrome.management.getSelf().installType ('development' for an unpacked extension). */
  installType(): Promise<string | undefined>;
}

/** Arm the watchdog at the fastest period Chrome honours for this install; keep an alarm already right. */
export async function armWatchdog(apis: WatchdogApis): Promise<number> {
  let installType: string | undefined;
  try {
    installType = await apis.installType();
  } catch {
    installType = undefined;
  }
  const period = installType === 'development' ? UNPACKED_PERIOD_MINUTES : PACKED_PERIOD_MINUTES;
  const existing = await apis.getAlarm(WATCHDOG_ALARM);
  // Re-creating an alarm pushes its next firing back, so only a missing or differently timed one is replaced.
  if (existing?.periodInMinutes !== period) await apis.createAlarm(WATCHDOG_ALARM, period);
  return period;
}

export const chromeWatchdogApis: WatchdogApis = {
  getAlarm: (name) => chrome.alarms.get(name),
  createAlarm: (name, periodInMinutes) => chrome.alarms.create(name, { periodInMinutes }),
  installType: async () => (await chrome.management.getSelf()).installType,
};
