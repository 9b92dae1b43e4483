/**
 * A bridge newer than the host the person's browser runs. The person updated chrome-relay, so `chrome-relay bridge` on
 * their machine is the new version, while their browser still runs the native host it started before the update: a
 * host of an older protocol, which refuses a call from another machine (its `via`) as a malformed request. The agent's
 * call must come back as a closed code that names the move (update, or restart the browser / reload the extension so
 * the host installed now starts) — never "Malformed request … via" — and the old host must be sent nothing.
 *
 * The old host is a stand-in served by this test: it publishes itself as a host does (a descriptor in <home>/run
 * naming a socket of this user's) with an older protocol, and answers as such a host did: a request carrying `via` is
 * invalid_arguments "Malformed request to the native host", anything else a plain `status`. The agent is the built
 * CLI; its link is `cmd:` running the built `chrome-relay bridge` (what `cmd.exe /c chrome-relay bridge` is under WSL).
 * No browser and no root: the bridge's decision is what is under test.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder } from '../packages/protocol/src/framing.js';
import { CLI, runCli } from './harness.js';

const node = process.execPath;
/** The protocol of hosts from before calls from other machines. */
const OLD_PROTOCOL = 1;
const OLD = { version: '0.0.9', protocolVersion: OLD_PROTOCOL };

let root = '';
let personHome = '';
let agentHome = '';
let server: Server | undefined;
const received: Record<string, unknown>[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cr-skew-'));
  personHome = join(root, 'person');
  agentHome = join(root, 'agent');
  for (const dir of [personHome, join(personHome, 'run'), agentHome]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const socket = join(personHome, 'run', `host-${process.pid}.sock`);
  const versions = { host: OLD, extension: OLD };
  server = createServer((client) => {
    const decoder = new FrameDecoder(1 << 20);
    client.on('data', (chunk: Buffer) => {
      for (const message of decoder.push(chunk)) {
        const request = message as Record<string, unknown>;
        received.push(request);
        const id = typeof request.id === 'number' ? request.id : 0;
        const tool = typeof request.tool === 'string' ? request.tool : '';
        const answer =
          'via' in request
            ? { id, ok: false, versions, error: { code: 'invalid_arguments', message: 'Malformed request to the native host: unknown option "via".', tool, phase: 'transport', details: { field: 'via' }, retryable: false } }
            : { id, ok: true, versions, result: {} };
        client.write(encodeFrame(answer, 1 << 20));
      }
    });
    client.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server?.listen(socket, resolve));
  const descriptor = {
    pid: process.pid,
    socket,
    startedAt: new Date().toISOString(),
    browserPid: null,
    profile: null,
    origin: 'chrome-extension://nplipfneioajmjoiadbinnjjicindjlf/',
    host: OLD,
    extension: { id: 'nplipfneioajmjoiadbinnjjicindjlf', ...OLD },
  };
  writeFileSync(join(personHome, 'run', `host-${process.pid}.json`), JSON.stringify(descriptor), { mode: 0o600 });
});

afterAll(async () => {
  // The agent's link holder (started by the first call through cmd:): ended by its pid, and it ends its bridge.
  try {
    const run = join(agentHome, 'run');
    const name = readdirSync(run).find((n) => /^link-[0-9a-f]+\.json$/.test(n));
    if (name !== undefined) process.kill((JSON.parse(readFileSync(join(run, name), 'utf8')) as { pid: number }).pid, 'SIGTERM');
  } catch {
    /* none left */
  }
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  rmSync(root, { recursive: true, force: true });
});

describe('a bridge newer than the host the browser runs', () => {
  it('answers extension_not_connected host_outdated naming the move, and sends the old host nothing', async () => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: root,
      TMPDIR: root,
      CHROME_RELAY_HOME: agentHome,
      CHROME_RELAY_ENDPOINT: `cmd:env CHROME_RELAY_HOME=${personHome} HOME=${root} ${node} ${CLI} bridge --label stand-in`,
    };
    for (const args of [['click', '--x', '5', '--y', '5', '--tab', '1'], ['tabs']]) {
      const result = await runCli(args, env, 60_000);
      expect(result.code, result.stderr).toBe(1);
      expect(result.error, result.stderr).toMatchObject({ code: 'extension_not_connected', retryable: false, details: { reason: 'host_outdated', host: OLD } });
      expect(result.error?.message).toContain('`chrome-relay update`');
      expect(result.error?.message).toMatch(/restart their browser or reload chrome-relay's extension/);
      expect(result.stderr).not.toContain('Malformed');
    }
    expect(received).toEqual([]);
  }, 120_000);
});
