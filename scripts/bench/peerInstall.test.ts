import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { AGENT_BROWSER_VERSION, binaryName, peerScratchDir } from './peerInstall.js';

describe('binaryName', () => {
  it('picks the package’s prebuilt binary for the platform', () => {
    expect(binaryName('linux', 'x64', false)).toBe('agent-browser-linux-x64');
    expect(binaryName('linux', 'arm64', true)).toBe('agent-browser-linux-musl-arm64');
    expect(binaryName('darwin', 'arm64', false)).toBe('agent-browser-darwin-arm64');
    expect(binaryName('win32', 'x64', false)).toBe('agent-browser-win32-x64.exe');
  });

  it('has none for platforms the package does not ship', () => {
    expect(binaryName('linux', 'ia32', false)).toBeUndefined();
    expect(binaryName('freebsd', 'x64', false)).toBeUndefined();
  });
});

describe('peerScratchDir', () => {
  it('is under the OS temp dir, never the repo, and names the pinned version', () => {
    expect(peerScratchDir().startsWith(tmpdir())).toBe(true);
    expect(peerScratchDir()).toContain(`agent-browser-${AGENT_BROWSER_VERSION}`);
    expect(peerScratchDir().startsWith(process.cwd())).toBe(false);
  });
});
