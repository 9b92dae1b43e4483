/**
 * The per-user secret behind a named pipe. File modes guard a Unix socket; a Windows named pipe has no
 * file to guard, and Node creates it with Windows' default security (read access for everyone, reachable
 * over the network). So a host on a pipe answers only clients that prove they can read this user's secret
 * file, which lives in the user's profile directory (readable by that user alone).
 *
 * What a client presents is not the secret but a proof bound to the pipe it talks to:
 * HMAC-SHA256(secret, "chrome-relay client" NUL <pipe name>). Pipe names are never reused (win32.ts), so a
 * proof captured by whoever serves a name after its host is gone opens no other host.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isNamedPipe } from './endpoint.js';
import { currentPlatform } from './platform/platform.js';
import type { Platform, UserFacts } from './platform/seam.js';
import { makeDirs } from './privateDir.js';

const SECRET = /^[0-9a-f]{64}$/;

/** A named pipe (`\\.\pipe\…`): its host wants a proof. A Unix socket does not. */
export function needsProof(endpoint: string): boolean {
  return isNamedPipe(endpoint);
}

function readSecret(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const secret = text.trim();
  if (!SECRET.test(secret)) throw new Error(`${file} is not a chrome-relay secret (64 hex digits); delete it and restart the browser.`);
  return secret;
}

/**
 * The secret in `file`, created on first use by whichever process needs it first (the host at start, or a
 * CLI). Created whole or not at all: written aside, then hard-linked into place, which fails when another
 * process won the race — so no reader ever sees half a secret, and the loser reads the winner's.
 */
export function readOrCreateSecret(file: string): string {
  const existing = readSecret(file);
  if (existing !== null) return existing;
  makeDirs(dirname(file), 0o700);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(tmp);
  }
  const created = readSecret(file);
  if (created === null) throw new Error(`${file} vanished while it was being created`);
  return created;
}

/** What a client presents to the host at `endpoint`. */
export function clientProof(secret: string, endpoint: string): string {
  return createHmac('sha256', secret).update(`chrome-relay client\0${endpoint}`).digest('hex');
}

/**
 * The proof for `endpoint` from this user's secret (created on first use), or null for an endpoint that
 * wants none. The CLI presents it; the host expects it: both ask here. Throws when the secret cannot be read.
 */
export function proofForEndpoint(endpoint: string, user: UserFacts, platform: Platform = currentPlatform()): string | null {
  if (!needsProof(endpoint)) return null;
  const file = platform.secretFile(user);
  if (file === null) throw new Error(`${endpoint} is a named pipe, but no secret guards pipes on ${platform.os}`);
  return clientProof(readOrCreateSecret(file), endpoint);
}

/** Whether `presented` is the proof `expected` (constant time). */
export function proofMatches(presented: unknown, expected: string): boolean {
  if (typeof presented !== 'string' || presented.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(presented), Buffer.from(expected));
}
