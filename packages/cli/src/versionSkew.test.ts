import { describe, expect, it } from 'vitest';
import { compareVersions, skewNotices } from './versionSkew.js';

describe('version skew notices', () => {
  it('compares dotted versions numerically', () => {
    expect(compareVersions('0.10.0', '0.9.9')).toBe(1);
    expect(compareVersions('1.0', '1.0.0')).toBe(0);
    expect(compareVersions('1.2.3', '1.2.4')).toBe(-1);
  });

  it('says nothing when versions match or the extension is unknown', () => {
    expect(skewNotices('0.1.0', '0.1.0')).toEqual([]);
    expect(skewNotices(null, '0.1.0')).toEqual([]);
  });

  it('tells an older CLI to update itself, with the command', () => {
    const [notice] = skewNotices('0.2.0', '0.1.0');
    expect(notice?.notice).toBe('cli_outdated');
    expect(notice?.message).toContain('npm i -g chrome-relay@latest');
  });

  it('tells about an older extension, with how to reload it', () => {
    const [notice] = skewNotices('0.1.0', '0.2.0');
    expect(notice?.notice).toBe('extension_outdated');
    expect(notice?.message).toContain('chrome-relay extension path');
  });
});
