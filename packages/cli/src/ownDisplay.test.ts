import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RelayError } from '@chrome-relay/protocol';
import { launch } from './launch.js';
import { cookieEntry, displayNeed } from './ownDisplay.js';

const root = mkdtempSync(join(tmpdir(), 'cr-display-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a display that outlives launch', () => {
  it("takes no DISPLAY, and xvfb-run's (which ends with the command it wraps), for none", () => {
    expect(displayNeed({})).toBe('missing');
    expect(displayNeed({ DISPLAY: ':0' })).toBe('present');
    expect(displayNeed({ DISPLAY: ':99', XAUTHORITY: '/tmp/xvfb-run.AbC123/Xauthority' })).toBe('transient');
    expect(displayNeed({ DISPLAY: ':1', XAUTHORITY: '/home/u/.Xauthority' })).toBe('present');
  });

  it('writes one Xauthority entry any display number matches (FamilyWild, empty address and number)', () => {
    const cookie = Buffer.alloc(16, 7);
    expect(cookieEntry(cookie).toString('hex')).toBe(`ffff000000000012${Buffer.from('MIT-MAGIC-COOKIE-1').toString('hex')}0010${cookie.toString('hex')}`);
  });

  it("without a display and without Xvfb, launch's error names an advice that works as printed (install Xvfb, or --headless; never xvfb-run)", async () => {
    // A browser that launch finds, so the display is what it stops at; nothing is started.
    const bin = join(root, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'chromium'), '#!/bin/sh\nexit 1\n');
    chmodSync(join(bin, 'chromium'), 0o755);
    const attempt = (env: NodeJS.ProcessEnv, xvfb = false): Promise<unknown> =>
      launch({
        home: join(root, 'home'),
        browserEnv: { platform: 'linux', userHome: join(root, 'user'), env: { PATH: bin } },
        browser: join(bin, 'chromium'),
        headless: false,
        browserArgs: [],
        timeoutMs: 1000,
        env,
        xvfb,
      }).catch((error: unknown) => error);
    for (const env of [{ PATH: bin }, { PATH: bin, DISPLAY: ':99', XAUTHORITY: '/tmp/xvfb-run.x1/Xauthority' }]) {
      const error = await attempt(env);
      expect(error).toBeInstanceOf(RelayError);
      const relay = error as RelayError;
      expect(relay.code).toBe('external_dependency_missing');
      expect(relay.message).toMatch(/install it \(Debian\/Ubuntu: `sudo apt-get install xvfb`.*run the same command again.*or pass --headless/);
      expect(relay.message).not.toContain('xvfb-run');
    }
    expect(((await attempt({ PATH: bin }, true)) as RelayError).message).toMatch(/^xvfb: Xvfb is not installed/);
  });
});
