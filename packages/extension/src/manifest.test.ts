/** The shipped manifest: same version as the protocol, the key that yields DEV_EXTENSION_ID, nothing the page can reach. */
import { DEV_EXTENSION_ID, VERSION } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';

interface FsModule {
  readFileSync(path: URL, encoding: 'utf8'): string;
}

async function readManifest(): Promise<Record<string, unknown>> {
  // This package is typed for the browser (no Node types), so node:fs is loaded untyped and given
  // the one signature used here.
  const fsName = 'node:fs';
  const fs: FsModule = await import(/* @vite-ignore */ fsName);
  const parsed: unknown = JSON.parse(fs.readFileSync(new URL('../manifest.json', import.meta.url), 'utf8'));
  if (typeof parsed !== 'object' || parsed === null) throw new Error('manifest.json is not an object');
  return parsed as Record<string, unknown>;
}

/** Chrome's id: the first 128 bits of sha256(public key DER), hex digits 0-f written as a-p. */
async function extensionIdOf(base64Key: string): Promise<string> {
  const der = Uint8Array.from(atob(base64Key), (c) => c.charCodeAt(0));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', der));
  return [...digest.slice(0, 16)]
    .flatMap((byte) => [byte >> 4, byte & 15])
    .map((nibble) => String.fromCharCode(97 + nibble))
    .join('');
}

describe('manifest.json', () => {
  it('carries the protocol version', async () => {
    expect((await readManifest())['version']).toBe(VERSION);
  });

  it('has the key whose id is DEV_EXTENSION_ID', async () => {
    const key = (await readManifest())['key'];
    expect(typeof key).toBe('string');
    expect(await extensionIdOf(String(key))).toBe(DEV_EXTENSION_ID);
  });

  it('exposes nothing to pages', async () => {
    const manifest = await readManifest();
    expect(manifest['content_scripts']).toBeUndefined();
    expect(manifest['web_accessible_resources']).toBeUndefined();
    expect(manifest['externally_connectable']).toBeUndefined();
  });

  it('has a toolbar popup and an options page that are the extension\'s own files', async () => {
    const manifest = await readManifest();
    expect(manifest['action']).toMatchObject({ default_popup: 'popup.html' });
    expect(manifest['options_ui']).toMatchObject({ page: 'options.html' });
  });
});
