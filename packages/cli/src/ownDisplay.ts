/**
 * A display of launch's own for a headful browser on a Linux machine without one (a server, a container,
 * CI, an SSH session): Xvfb, started detached, which outlives the launch command and is ended by
 * `chrome-relay stop`. Wrapping launch in `xvfb-run` does not work: xvfb-run ends its X server when the
 * command it ran exits, and launch exits as soon as the browser is connected, so the browser then dies
 * with "X connection error". A display xvfb-run set up (its XAUTHORITY lives in its own temp directory)
 * is therefore treated as no display.
 *
 * The server lets in only clients that present its cookie (-auth, MIT-MAGIC-COOKIE-1): without it any
 * local user could read the screen of the agent's browser or type into it. The cookie file, 0600 in the
 * home, is both the server's list and the browser's XAUTHORITY: one entry whose address and display
 * number are empty, which Xlib takes for any display (the number is only known once Xvfb picked it).
 */
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { RelayError } from '@chrome-relay/protocol';
import { isExecutable } from './doctor.js';

export interface OwnDisplay {
  pid: number;
  /** `:N`, for DISPLAY. */
  display: string;
  /** The cookie file (server -auth and the browser's XAUTHORITY). */
  authFile: string;
}

/** Where an X display comes from for a headful browser on Linux. */
export type DisplayNeed = 'present' | 'missing' | 'transient';

/** Whether the environment's display will outlive this command. */
export function displayNeed(env: NodeJS.ProcessEnv): DisplayNeed {
  if (!env.DISPLAY) return 'missing';
  // xvfb-run's cookie sits in the temp directory it removes, with its server, when its command exits.
  return /[/\\]xvfb-run\.[^/\\]+[/\\]/.test(env.XAUTHORITY ?? '') ? 'transient' : 'present';
}

export function findXvfb(pathEnv: string | undefined): string | null {
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    if (dir === '' || !dir.startsWith('/')) continue;
    const candidate = join(dir, 'Xvfb');
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

export const XVFB_INSTALL = 'Debian/Ubuntu: `sudo apt-get install xvfb`; Fedora: `sudo dnf install xorg-x11-server-Xvfb`';

/** One Xauthority entry (X11 Xauth format: big-endian lengths) that any display number matches. */
export function cookieEntry(cookie: Buffer): Buffer {
  const FAMILY_WILD = 0xffff;
  const counted = (bytes: Buffer): Buffer => {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const family = Buffer.alloc(2);
  family.writeUInt16BE(FAMILY_WILD);
  return Buffer.concat([family, counted(Buffer.alloc(0)), counted(Buffer.alloc(0)), counted(Buffer.from('MIT-MAGIC-COOKIE-1')), counted(cookie)]);
}

const SCREEN = '1280x1024x24';
const START_TIMEOUT_MS = 10_000;

/** Start Xvfb detached (it outlives this process) on a free display it picks; logs go to `logFd` (the caller's to close). */
export async function startOwnDisplay(xvfb: string, runDir: string, logFd: number): Promise<OwnDisplay> {
  const authFile = join(runDir, `xauth-${process.pid}-${Date.now()}`);
  writeFileSync(authFile, cookieEntry(randomBytes(16)), { mode: 0o600 });
  const { spawn } = await import('node:child_process');
  // -displayfd: Xvfb picks a free display and writes its number to fd 3 once it accepts clients.
  const child = spawn(xvfb, ['-displayfd', '3', '-screen', '0', SCREEN, '-nolisten', 'tcp', '-auth', authFile], {
    detached: true,
    stdio: ['ignore', logFd, logFd, 'pipe'],
  });
  try {
    const display = await new Promise<string>((resolve, reject) => {
      const pipe = child.stdio[3];
      if (!pipe) return reject(new Error('no display pipe'));
      let text = '';
      const timer = setTimeout(() => reject(new Error(`it reported no display within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      pipe.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (!text.includes('\n')) return;
        clearTimeout(timer);
        resolve(`:${text.trim()}`);
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`it exited with code ${code ?? 'null'}`));
      });
    });
    child.stdio[3]?.destroy();
    child.unref();
    return { pid: child.pid ?? 0, display, authFile };
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(authFile, { force: true });
    throw new RelayError('external_dependency_missing', `Xvfb (${xvfb}) did not start: ${(error as Error).message}. Pass --headless, or set DISPLAY to a running X server.`, {
      tool: 'launch',
      phase: 'cli',
      details: { dependency: 'Xvfb', program: xvfb },
    });
  }
}
