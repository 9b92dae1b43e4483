import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeHost, type FakeHost } from '../testing/fakeHost.js';
import { HostSession } from './hostSession.js';
import { failureOf } from '../testing/relayFailure.js';

let home = '';
let host: FakeHost | undefined;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cr-mcp-session-'));
});
afterEach(async () => {
  await host?.close();
  host = undefined;
  rmSync(home, { recursive: true, force: true });
});

describe('HostSession.close (the MCP client went away)', () => {
  it('fails the call in flight as native_host_disconnected (cause client_closed), and every later call at once', async () => {
    // An extension that does not answer ping: the fake host answers it only at its deadline.
    host = await startFakeHost({ home, pid: process.pid, extensionAnswers: false });
    const session = new HostSession({ home });
    const status = await session.call('status', {}, 2000);
    expect(status.ok).toBe(true);

    const inFlight = failureOf(session.call('ping', {}, 1500));
    await new Promise((resolve) => setTimeout(resolve, 100));
    session.close();
    const cut = await inFlight;
    expect(cut).toMatchObject({ code: 'native_host_disconnected', tool: 'ping', details: { cause: 'client_closed' } });
    expect(cut.message).toContain('the MCP client closed the session');

    const later = await failureOf(session.call('status', {}, 2000));
    expect(later).toMatchObject({ code: 'native_host_disconnected', details: { cause: 'client_closed' } });
    expect(host.requests.map((r) => r.tool)).toEqual(['status', 'ping']);
  });

});
