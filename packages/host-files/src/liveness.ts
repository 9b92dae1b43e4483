import { connect } from 'node:net';
import { osOf } from './platform/os.js';
import { platformOf } from './platform/platform.js';

/** Alive: not gone, and (on Linux) not a zombie — the rules per OS are in platform/. */
export function isPidAlive(pid: number): boolean {
  return platformOf(osOf(process.platform)).isPidAlive(pid);
}

/**
 * 'dead' only when nothing listens (refused, or the socket or pipe is gone); anything ambiguous (a pipe
 * whose instances are all busy, a slow answer) counts as live.
 */
export function probeSocket(path: string, timeoutMs = 500): Promise<'live' | 'dead'> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const done = (verdict: 'live' | 'dead'): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(verdict);
    };
    const timer = setTimeout(() => done('live'), timeoutMs);
    socket.once('connect', () => done('live'));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? 'dead' : 'live'));
  });
}
