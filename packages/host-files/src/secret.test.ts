import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { platformOf } from './platform/platform.js';
import { clientProof, needsProof, proofForEndpoint, proofMatches, readOrCreateSecret } from './secret.js';

let scratch = '';
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cr-secret-'));
});
afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('the per-user secret', () => {
  it('is created once, whole, in a directory made for it, and read back by every later caller', () => {
    const file = join(scratch, 'Local', 'chrome-relay', 'secret');
    const first = readOrCreateSecret(file);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(readOrCreateSecret(file)).toBe(first);
    expect(readFileSync(file, 'utf8')).toBe(`${first}\n`);
    expect(readdirSync(join(scratch, 'Local', 'chrome-relay'))).toEqual(['secret']);
  });

  it('refuses a file that is not a secret rather than guessing', () => {
    const file = join(scratch, 'secret');
    writeFileSync(file, 'hunter2');
    expect(() => readOrCreateSecret(file)).toThrow(/not a chrome-relay secret/);
  });

  it('is presented as a proof bound to one pipe: another pipe, another secret or no proof does not match', () => {
    const secret = 'a'.repeat(64);
    const pipe = '\\\\.\\pipe\\chrome-relay-0123456789abcdef-7-aabbccddeeff';
    const proof = clientProof(secret, pipe);
    expect(proof).toMatch(/^[0-9a-f]{64}$/);
    expect(proof).not.toContain(secret);
    expect(proofMatches(proof, clientProof(secret, pipe))).toBe(true);
    expect(proofMatches(clientProof(secret, `${pipe}0`), proof)).toBe(false);
    expect(proofMatches(clientProof('b'.repeat(64), pipe), proof)).toBe(false);
    expect(proofMatches(undefined, proof)).toBe(false);
    expect(proofMatches(secret, proof)).toBe(false);
    expect(proofMatches(proof.slice(1), proof)).toBe(false);
  });

  it('is what the CLI presents and the host expects, both from the secret in the user\'s profile directory', () => {
    // Windows, with each user's profile directory in the scratch dir (win32 paths would not resolve here).
    const windows = { ...platformOf('win32'), secretFile: (user: { env: NodeJS.ProcessEnv }) => join(scratch, user.env.LOCALAPPDATA ?? '', 'chrome-relay', 'secret') };
    const pipe = '\\\\.\\pipe\\chrome-relay-0123456789abcdef-7-aabbccddeeff';
    const user = { env: { LOCALAPPDATA: 'ana' }, userHome: scratch };
    const expected = proofForEndpoint(pipe, user, windows);
    expect(expected).toBe(clientProof(readFileSync(join(scratch, 'ana', 'chrome-relay', 'secret'), 'utf8').trim(), pipe));
    expect(proofForEndpoint(pipe, user, windows)).toBe(expected);
    // Another user's profile holds another secret: their proof opens nothing of ana's.
    const other = proofForEndpoint(pipe, { env: { LOCALAPPDATA: 'bob' }, userHome: scratch }, windows);
    expect(proofMatches(other, expected ?? '')).toBe(false);
    expect(proofForEndpoint('/home/ana/.chrome-relay/run/host-7.sock', user, windows)).toBeNull();
    expect(() => proofForEndpoint(pipe, user, platformOf('linux'))).toThrow(/no secret guards pipes on linux/);
  });

  it('guards named pipes only: a Unix socket has its file modes', () => {
    expect(needsProof('\\\\.\\pipe\\chrome-relay-x')).toBe(true);
    expect(needsProof('\\\\?\\PIPE\\chrome-relay-x')).toBe(true);
    expect(needsProof('/home/u/.chrome-relay/run/host-1.sock')).toBe(false);
    expect(needsProof('C:\\pipe\\x')).toBe(false);
  });
});
