import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureIn } from '../testing/relayFailure.js';
import { endpointOf, parseEndpoint } from './endpoint.js';
import { linkCommand } from './linkHolder.js';

describe('the endpoint an agent names', () => {
  it('reads the three forms', () => {
    expect(parseEndpoint('unix:/run/relay.sock', 'endpoint')).toEqual({ kind: 'unix', path: '/run/relay.sock', text: 'unix:/run/relay.sock' });
    expect(parseEndpoint('unix:///run/relay.sock', 'endpoint')).toMatchObject({ kind: 'unix', path: '/run/relay.sock' });
    expect(parseEndpoint('unix:relay.sock', 'endpoint')).toMatchObject({ kind: 'unix', path: resolve('relay.sock') });
    expect(parseEndpoint('ssh://desk', 'endpoint')).toEqual({ kind: 'ssh', host: 'desk', user: undefined, port: undefined, text: 'ssh://desk' });
    expect(parseEndpoint('ssh://ana@desk.example.com:2222/', 'endpoint')).toMatchObject({ kind: 'ssh', host: 'desk.example.com', user: 'ana', port: 2222 });
    expect(parseEndpoint('ssh://ana@[::1]:22', 'endpoint')).toMatchObject({ host: '[::1]', port: 22 });
    expect(parseEndpoint('ssh://my_box', 'endpoint')).toMatchObject({ host: 'my_box' });
    expect(parseEndpoint('cmd:cmd.exe /c chrome-relay bridge', 'endpoint')).toEqual({ kind: 'cmd', command: 'cmd.exe /c chrome-relay bridge', text: 'cmd:cmd.exe /c chrome-relay bridge' });
  });

  it('refuses what is not an endpoint, naming where it came from: never an ssh option in the host or user', () => {
    for (const text of ['', 'tcp://x:1', 'unix:', 'cmd:  ', 'ssh://', 'ssh://-oProxyCommand=sh', 'ssh://desk/path', 'ssh://a b@desk', 'ssh://-l@desk', 'ssh://desk:0', 'ssh://desk:70000', 'ssh://desk:x']) {
      const error = failureIn(() => parseEndpoint(text, 'CHROME_RELAY_ENDPOINT'));
      expect(error.code, text).toBe('invalid_arguments');
      expect(error.details.field, text).toBe('CHROME_RELAY_ENDPOINT');
      expect(error.message, text).toContain('unix:<path>, ssh://[user@]host[:port] or cmd:<command line>');
    }
  });

  it('--endpoint wins over CHROME_RELAY_ENDPOINT; an empty variable is unset', () => {
    expect(endpointOf(undefined, {})).toBeUndefined();
    expect(endpointOf(undefined, { CHROME_RELAY_ENDPOINT: '' })).toBeUndefined();
    expect(endpointOf(undefined, { CHROME_RELAY_ENDPOINT: 'ssh://desk' })).toMatchObject({ kind: 'ssh', host: 'desk' });
    expect(endpointOf('unix:/x.sock', { CHROME_RELAY_ENDPOINT: 'ssh://desk' })).toMatchObject({ kind: 'unix', path: '/x.sock' });
    expect(failureIn(() => endpointOf('nope', {})).details.field).toBe('endpoint');
  });

  it('runs the system ssh with the host after `--`, no terminal and no forwardings; cmd: through the shell', () => {
    const ssh = linkCommand({ kind: 'ssh', host: '[::1]', user: 'ana', port: 2222, text: '' });
    expect(ssh.file).toBe('ssh');
    expect(ssh.shell).toBe(false);
    expect(ssh.args).toEqual(expect.arrayContaining(['-T', '-p', '2222', '-l', 'ana', '-o', 'ClearAllForwardings=yes']));
    expect(ssh.args.slice(ssh.args.indexOf('--'))).toEqual(['--', '::1', 'chrome-relay', 'bridge']);
    expect(linkCommand({ kind: 'ssh', host: 'desk', user: undefined, port: undefined, text: '' }).args).not.toContain('-p');
    expect(linkCommand({ kind: 'cmd', command: 'wsl.exe -e true', text: '' })).toEqual({ file: 'wsl.exe -e true', args: [], shell: true });
  });
});
