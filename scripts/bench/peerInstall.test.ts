import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { AGENT_BROWSER_VERSION, binaryName, npmEnv, npmErrorSummary, peerScratchDir } from './peerInstall.js';

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

describe('npmEnv', () => {
  it('drops the settings pnpm exports to scripts but keeps how to reach the registry and what a person set', () => {
    const env = { PATH: '/bin', npm_config_frozen_lockfile: 'true', npm_config_nodedir: '/x', npm_lifecycle_event: 'bench', pnpm_config_verify_deps_before_run: 'x', npm_config_registry: 'https://r/', NPM_CONFIG_CACHE: '/c' };
    expect(npmEnv(env)).toEqual({ PATH: '/bin', npm_config_registry: 'https://r/', NPM_CONFIG_CACHE: '/c' });
  });
});

describe('npmErrorSummary', () => {
  it('keeps npm’s code and message, not its stack', () => {
    const stderr = ['npm error code ECONNREFUSED', 'npm error syscall connect', 'npm error errno ECONNREFUSED', 'npm error FetchError: request to http://127.0.0.1:9/agent-browser failed, reason: connect ECONNREFUSED 127.0.0.1:9', 'npm error     at ClientRequest.<anonymous> (x.js:130:14)'].join('\n');
    expect(npmErrorSummary(stderr)).toBe('code ECONNREFUSED — FetchError: request to http://127.0.0.1:9/agent-browser failed, reason: connect ECONNREFUSED 127.0.0.1:9');
  });
});
