/**
 * A socket born private: every listener of ours (the host's socket, a bridge's, a link holder's) is created under
 * umask 0o177, so there is no moment at which another user could connect before its owner sets the final mode.
 */
import type { Server } from 'node:net';

/**
 * Listen on `path` (exclusive: a path another listener holds is an error, never shared). A Windows named pipe
 * (`pipe`) takes no umask: modes mean nothing there, and process.umask() is a no-op.
 */
export async function listenPrivate(server: Server, path: string, pipe = false): Promise<void> {
  const previous = pipe ? null : process.umask(0o177);
  try {
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen({ path, exclusive: true }, () => {
        server.off('error', fail);
        ok();
      });
    });
  } finally {
    if (previous !== null) process.umask(previous);
  }
}
