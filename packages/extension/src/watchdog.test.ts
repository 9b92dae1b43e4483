import { describe, expect, it } from 'vitest';
import { armWatchdog, PACKED_PERIOD_MINUTES, UNPACKED_PERIOD_MINUTES, WATCHDOG_ALARM, type WatchdogApis } from './watchdog.js';

function fake(installType: string | undefined | Error, existing?: number) {
  const created: [string, number][] = [];
  let alarm = existing === undefined ? undefined : { periodInMinutes: existing };
  const apis: WatchdogApis = {
    getAlarm: async () => alarm,
    createAlarm: async (name, period) => {
      created.push([name, period]);
      alarm = { periodInMinutes: period };
    },
    installType: async () => {
      if (installType instanceof Error) throw installType;
      return installType;
    },
  };
  return { apis, created };
}

describe('armWatchdog', () => {
  it('an unpacked extension is woken every second, an installed one at Chrome\'s 30-s minimum', async () => {
    const dev = fake('development');
    expect(await armWatchdog(dev.apis)).toBe(UNPACKED_PERIOD_MINUTES);
    expect(dev.created).toEqual([[WATCHDOG_ALARM, 1 / 60]]);
    const store = fake('normal');
    expect(await armWatchdog(store.apis)).toBe(PACKED_PERIOD_MINUTES);
    const unknown = fake(new Error('management unavailable'));
    expect(await armWatchdog(unknown.apis)).toBe(PACKED_PERIOD_MINUTES);
  });

  it('keeps an alarm that already has the right period (re-creating would delay it), replaces one that does not', async () => {
    const right = fake('development', UNPACKED_PERIOD_MINUTES);
    await armWatchdog(right.apis);
    expect(right.created).toEqual([]);
    const stale = fake('development', 0.5);
    await armWatchdog(stale.apis);
    expect(stale.created).toEqual([[WATCHDOG_ALARM, UNPACKED_PERIOD_MINUTES]]);
  });
});
