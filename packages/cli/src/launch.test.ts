import { describe, expect, it } from 'vitest';
import { HOST_NAME } from '@chrome-relay/protocol';
import { launchTargets } from './launch.js';

const key = (vendor: string): string => `HKCU\\Software\\${vendor}\\NativeMessagingHosts\\${HOST_NAME}`;

describe('where launch registers the host', () => {
  it('Linux and macOS: in the launched profile\'s own directory', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      expect(launchTargets('/usr/lib/chromium/chromium', '/p/profile', '/h', { platform, userHome: '/u' })).toEqual([
        { browser: 'profile', manifest: `/p/profile/NativeMessagingHosts/${HOST_NAME}.json`, registryKey: null },
      ]);
    }
  });

  it('Windows: under the key of the browser the executable belongs to; an unnamed build gets the Chromium and Chrome for Testing keys', () => {
    const env = { platform: 'win32' as const, userHome: 'C:\\Users\\u', env: {} };
    expect(launchTargets('C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'C:\\p', '/h', env).map((t) => t.registryKey)).toEqual([key('Google\\Chrome')]);
    expect(launchTargets('C:\\ci\\chrome-win64\\chrome.exe', 'C:\\p', '/h', env)).toEqual([
      { browser: 'chromium', manifest: `/h/host/manifests/chromium.json`, registryKey: key('Chromium') },
      { browser: 'chrome-for-testing', manifest: `/h/host/manifests/chrome-for-testing.json`, registryKey: key('Google\\Chrome for Testing') },
    ]);
  });
});
