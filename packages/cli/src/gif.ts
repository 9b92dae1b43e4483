/** ffmpeg for `record stop --gif`: probed before the recording is stopped, so a missing one loses nothing. */
import { join } from 'node:path';
import { RelayError } from '@chrome-relay/protocol';
import { stderr } from './output.js';

export async function hasFfmpeg(): Promise<boolean> {
  // Loaded on use: child_process costs ~7 ms at start-up, and most CLI runs never spawn anything.
  const { spawnSync } = await import('node:child_process');
  const probe = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

/**
 * Encode dir/frame-%05d.jpg into dir/recording.gif. A person at a terminal sees progress on one line rewritten in
 * place; anything else (an agent reading stderr) gets none, so a failure's stderr stays one human line and the block.
 */
export async function encodeGif(dir: string, frameCount: number, fps: number): Promise<string> {
  const { spawn } = await import('node:child_process');
  const out = join(dir, 'recording.gif');
  const args = ['-hide_banner', '-loglevel', 'error', '-y', '-framerate', String(fps), '-i', join(dir, 'frame-%05d.jpg'),
    '-vf', 'split[a][b];[a]palettegen[p];[b][p]paletteuse', '-progress', 'pipe:1', '-nostats', out];
  return new Promise((resolvePromise, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    const progress = stderr().isTTY === true;
    let shown = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (!progress) return;
      for (const match of chunk.toString().matchAll(/^frame=(\d+)$/gm)) {
        stderr().write(`\rchrome-relay: encoding GIF: frame ${match[1]}/${frameCount}`);
        shown = true;
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', (error) => reject(error));
    child.on('close', (code) => {
      if (shown) stderr().write('\r\x1b[K');
      if (code === 0) resolvePromise(out);
      else reject(new RelayError('external_dependency_missing', `ffmpeg failed to encode the GIF (exit ${code}): ${errors.trim().slice(0, 500)}. The frames are in ${dir}.`, {
        phase: 'cli',
        details: { dependency: 'ffmpeg', exitCode: code, framesDir: dir },
      }));
    });
  });
}
