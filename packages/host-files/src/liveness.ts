import { readFileSync } from 'node:fs';
import { connect } from 'node:net';

/** A killed host stays a zombie until its parent (the browser) reaps it: it answers kill(0) but is dead. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may contain spaces or ')'; the state letter follows the last ')'.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    // No /proc (macOS) or already gone: kill(0) decided.
    return false;
  }
}

/** Alive: kill(pid, 0) succeeds (EPERM: someone else's, but alive) and it is not a zombie. */
export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** 'dead' only when nothing listens (refused, or the path is gone); anything ambiguous counts as live. */
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
