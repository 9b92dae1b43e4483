import type { HostDescriptor } from '@chrome-relay/protocol';
import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import type { DoctorReport } from './doctor.js';
import type { InstallResult } from './install.js';
import { EXTENSIONS_PAGE, runSetup, waitForConnection, type SetupDeps, type SetupIO } from './setup.js';

const INSTALLED: InstallResult = {
  launcher: '/h/host/chrome-relay-host',
  hostFile: '/h/host/host.mjs',
  extensionIds: ['nplipfneioajmjoiadbinnjjicindjlf'],
  written: [{ browser: 'chrome', manifest: '/u/.config/google-chrome/NativeMessagingHosts/x.json' }],
  failed: [],
  record: '/h/installed.json',
};

const DESCRIPTOR: HostDescriptor = {
  pid: 10,
  socket: '/h/run/host-10.sock',
  startedAt: '2026-01-01T00:00:00Z',
  browserPid: 9,
  profile: null,
  origin: 'chrome-extension://nplipfneioajmjoiadbinnjjicindjlf/',
  host: { version: '0.1.0', protocolVersion: 1 },
  extension: { id: 'nplipfneioajmjoiadbinnjjicindjlf', version: '0.1.0', protocolVersion: 1 },
};

const HEALTHY: DoctorReport = { healthy: true, cli: { version: '0.1.0', protocolVersion: 1 }, home: '/h', checks: [] };

interface Recorder {
  said: string[];
  progress: string[];
  questions: string[];
  opened: string[];
  installs: number;
  doctors: number;
  copied?: string;
}

/** Fake machine: answers, when the extension connects (after `connectAfterMs`), a clock that sleeps instantly. */
function fakeDeps(options: { interactive: boolean; answers?: string[]; connectAfterMs?: number; wait?: boolean; timeoutMs?: number }) {
  const rec: Recorder = { said: [], progress: [], questions: [], opened: [], installs: 0, doctors: 0 };
  const answers = [...(options.answers ?? [])];
  let now = 0;
  const io: SetupIO = {
    interactive: options.interactive,
    say: (text) => void rec.said.push(text),
    progress: (line) => void rec.progress.push(line),
    progressDone: () => undefined,
    ask: async (question) => {
      rec.questions.push(question);
      const answer = answers.shift();
      if (answer === undefined) throw new Error(`unexpected question: ${question}`);
      return answer;
    },
  };
  const deps: SetupDeps = {
    io,
    targets: [{ browser: 'chrome', manifest: '/u/.config/google-chrome/NativeMessagingHosts/com.chrome_relay.host.json', registryKey: null }],
    browsers: [
      { browser: 'chrome', label: 'Google Chrome', userDataDir: '/u/.config/google-chrome', dir: '/u/.config/google-chrome/NativeMessagingHosts', registryKey: null, detected: true },
      { browser: 'chromium', label: 'Chromium', userDataDir: '/u/.config/chromium', dir: '/u/.config/chromium/NativeMessagingHosts', registryKey: null, detected: false },
    ],
    install: () => {
      rec.installs++;
      return INSTALLED;
    },
    extensionDir: '/pkg/dist/extension',
    connected: () => (options.connectAfterMs !== undefined && now >= options.connectAfterMs ? DESCRIPTOR : null),
    openable: () => [
      { browser: 'chrome', label: 'Google Chrome' },
      { browser: 'chromium', label: 'Chromium' },
    ],
    openSteps: async (browser) => void rec.opened.push(browser),
    copy: async (text) => {
      rec.copied = text;
      return 'xclip';
    },
    doctor: async () => {
      rec.doctors++;
      return HEALTHY;
    },
    renderDoctor: () => 'doctor checklist',
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    wait: options.wait ?? false,
    timeoutMs: options.timeoutMs ?? 60_000,
  };
  return { deps, rec };
}

describe('setup without a terminal', () => {
  it('is install: no question, no wait, the install result plus the folder and the steps', async () => {
    const { deps, rec } = fakeDeps({ interactive: false });
    const result = await runSetup(deps);
    expect(result).toMatchObject({ ...INSTALLED, extensionPath: '/pkg/dist/extension' });
    expect(result.steps).toHaveLength(4);
    expect(result.steps[2]).toContain('/pkg/dist/extension');
    expect(result.steps[3]).toMatch(/^Pin the toolbar button: click the puzzle-piece "Extensions" button right of the address bar/);
    expect(result.doctor).toBeUndefined();
    expect(rec).toMatchObject({ questions: [], opened: [], installs: 1, doctors: 0, said: [] });
  });

  it('with --wait, waits for the extension (a progress line every few seconds) and runs doctor', async () => {
    const { deps, rec } = fakeDeps({ interactive: false, wait: true, connectAfterMs: 12_000 });
    const result = await runSetup(deps);
    expect(result.connected).toEqual({ profile: null, browserPid: 9, extension: '0.1.0' });
    expect(result.doctor).toBe(HEALTHY);
    expect(rec.progress.length).toBeGreaterThanOrEqual(2);
    expect(rec.progress.length).toBeLessThanOrEqual(4);
    expect(rec.progress.every((line) => /Waiting for the extension to connect… \d+ s$/.test(line))).toBe(true);
    expect(rec.questions).toEqual([]);
  });
});

describe('setup on a terminal', () => {
  it('registers, shows the folder and the three clicks, opens the steps in the chosen browser, waits, then doctor', async () => {
    const { deps, rec } = fakeDeps({ interactive: true, answers: ['1'], connectAfterMs: 3_000 });
    const result = await runSetup(deps);
    const text = rec.said.join('\n');
    expect(text).toContain('Google Chrome: /u/.config/google-chrome/NativeMessagingHosts/x.json');
    expect(text).toContain('Turn on "Developer mode"');
    expect(text).toContain('Click "Load unpacked" and choose the folder /pkg/dist/extension (it is in a hidden folder, which the folder picker does not list: press Ctrl+L there');
    // Pasting is how the picker reaches a hidden folder: the path is on the clipboard.
    expect(rec.copied).toBe('/pkg/dist/extension');
    expect(text).toContain("The folder's path is on your clipboard (xclip)");
    expect(text).toContain('Pause stops them all at once');
    expect(rec.questions[0]).toContain('[1] Google Chrome');
    // Only browsers just registered are offered.
    expect(rec.questions[0]).not.toContain('Chromium');
    expect(rec.opened).toEqual(['chrome']);
    expect(text).toContain(`paste ${EXTENSIONS_PAGE} into its address bar`);
    expect(rec.progress.at(-1)).toMatch(/Waiting for the extension to connect… 2 s/);
    expect(text).toContain('Connected');
    expect(text).toContain('doctor checklist');
    // It ends by saying where the button hides and to pin it.
    expect(rec.said.at(-1)).toMatch(/^Last step, if not done yet: Pin the toolbar button: click the puzzle-piece "Extensions" button right of the address bar/);
    expect(result.doctor).toBe(HEALTHY);
  });

  it('Enter skips opening; a wrong answer asks again', async () => {
    const { deps, rec } = fakeDeps({ interactive: true, answers: ['7', ''], connectAfterMs: 0 });
    await runSetup(deps);
    expect(rec.questions).toHaveLength(2);
    expect(rec.opened).toEqual([]);
    expect(rec.said.join('\n')).toContain('Type a number from 1 to 1');
  });

  it('gives up with timeout not_connected naming the fix', async () => {
    const { deps } = fakeDeps({ interactive: true, answers: [''], timeoutMs: 5_000 });
    const error = await runSetup(deps).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ code: 'timeout', details: { reason: 'not_connected' } });
    expect((error as RelayError).message).toContain('chrome-relay doctor');
  });
});

describe('waitForConnection', () => {
  it('returns at once when already connected, without a tick', async () => {
    const ticks: number[] = [];
    const found = await waitForConnection(() => 'yes', { now: () => 0, sleep: async () => undefined }, 1000, (ms) => ticks.push(ms));
    expect(found).toBe('yes');
    expect(ticks).toEqual([]);
  });
});
