import { describe, expect, it } from 'vitest';
import { DEV_EXTENSION_ID } from '@chrome-relay/protocol';
import { allowedExtensionIds, checkHello, checkOrigin } from './origin.js';

const STORE_ID = 'abcdefghijklmnopabcdefghijklmnop';

describe('checkOrigin', () => {
  it('accepts the dev id, and ids listed in CHROME_RELAY_EXTENSION_IDS', () => {
    expect(checkOrigin(`chrome-extension://${DEV_EXTENSION_ID}/`, allowedExtensionIds({}))).toEqual({ ok: true, id: DEV_EXTENSION_ID });
    const allowed = allowedExtensionIds({ CHROME_RELAY_EXTENSION_IDS: ` ${STORE_ID} ,,` });
    expect(checkOrigin(`chrome-extension://${STORE_ID}/`, allowed)).toEqual({ ok: true, id: STORE_ID });
  });

  it('rejects a missing, malformed or unknown origin with a reason that names the fix', () => {
    const allowed = allowedExtensionIds({});
    expect(checkOrigin(undefined, allowed)).toMatchObject({ ok: false });
    expect(checkOrigin(`chrome-extension://${DEV_EXTENSION_ID}`, allowed)).toMatchObject({ ok: false, reason: /not of the form/ });
    expect(checkOrigin('--parent-window=0', allowed)).toMatchObject({ ok: false });
    expect(checkOrigin(`chrome-extension://${STORE_ID}/`, allowed)).toMatchObject({ ok: false, reason: /CHROME_RELAY_EXTENSION_IDS/ });
  });

  it('accepts a hello only from the extension Chrome started the host for', () => {
    const hello = (id: string) => ({ type: 'hello' as const, extension: { id, version: '0.1.0', protocolVersion: 1 }, userAgent: 'UA' });
    expect(checkHello(hello(DEV_EXTENSION_ID), DEV_EXTENSION_ID)).toEqual({ ok: true, id: DEV_EXTENSION_ID });
    const other = checkHello(hello('a'.repeat(32)), DEV_EXTENSION_ID);
    expect(other.ok).toBe(false);
    expect(other).toMatchObject({ reason: expect.stringContaining(DEV_EXTENSION_ID) });
  });
});
