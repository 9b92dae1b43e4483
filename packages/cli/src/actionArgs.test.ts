import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invalidField as fieldOf } from '@chrome-relay/protocol/src/testing/invalidField.js';
import { parseParams, RelayError } from '@chrome-relay/protocol';
import { getParams, parseDownloadDir, parseKeyList, parseTabList, parseTypeText, waitCondition } from './actionArgs.js';


describe('action argument parsers', () => {
  it('keys and type need something to press or type', () => {
    expect(parseKeyList(['Enter', 'Shift+Tab'])).toEqual(['Enter', 'Shift+Tab']);
    expect(fieldOf(() => parseKeyList([]))).toBe('keys');
    expect(fieldOf(() => parseKeyList(['a', ' ']))).toBe('keys');
    expect(parseTypeText('hi there')).toBe('hi there');
    expect(fieldOf(() => parseTypeText(''))).toBe('text');
  });

  it('close takes tab ids only', () => {
    expect(parseTabList(['12', '34'])).toEqual([12, 34]);
    expect(parseTabList([])).toEqual([]);
    expect(fieldOf(() => parseTabList(['12', 'abc']))).toBe('tabs');
    expect(fieldOf(() => parseTabList(['0']))).toBe('tabs');
  });

  it('wait takes exactly one non-empty condition', () => {
    expect(waitCondition({ text: 'Done' })).toEqual({ text: 'Done' });
    expect(waitCondition({ networkidle: true })).toEqual({ networkIdle: true });
    expect(waitCondition({ download: true })).toEqual({ download: true });
    expect(fieldOf(() => waitCondition({}))).toBe('condition');
    expect(fieldOf(() => waitCondition({ text: 'a', load: true }))).toBe('condition');
    expect(fieldOf(() => waitCondition({ selector: '  ' }))).toBe('selector');
  });

  it('the wait schema itself enforces one condition (for callers other than this CLI)', () => {
    expect(() => parseParams('wait', { text: 'a', url: '**' }, 'cli')).toThrow(RelayError);
    try {
      parseParams('wait', {}, 'cli');
    } catch (error) {
      expect((error as RelayError).details.field).toBe('condition');
    }
  });

  it('get checks what, attribute name and selector together', () => {
    expect(getParams('title', undefined, undefined)).toEqual({ what: 'title' });
    expect(getParams('attr', 'href', 'a.next')).toEqual({ what: 'attr', name: 'href', selector: 'a.next' });
    expect(fieldOf(() => getParams('html', undefined, 'p'))).toBe('what');
    expect(fieldOf(() => getParams('text', undefined, undefined))).toBe('selector');
    expect(fieldOf(() => getParams('url', undefined, 'p'))).toBe('selector');
    expect(fieldOf(() => getParams('attr', undefined, 'a'))).toBe('name');
    expect(fieldOf(() => getParams('count', 'href', 'a'))).toBe('name');
  });

  it('download --dir must be an existing, writable directory; relative paths resolve from the cwd', () => {
    const root = mkdtempSync(join(tmpdir(), 'cr-dir-'));
    expect(parseDownloadDir(root)).toBe(root);
    expect(parseDownloadDir('.', root)).toBe(root);
    expect(fieldOf(() => parseDownloadDir(join(root, 'missing')))).toBe('dir');
    const file = join(root, 'file');
    writeFileSync(file, 'x');
    expect(fieldOf(() => parseDownloadDir(file))).toBe('dir');
    if (process.getuid?.() !== 0) {
      const locked = mkdtempSync(join(root, 'locked-'));
      chmodSync(locked, 0o500);
      expect(fieldOf(() => parseDownloadDir(locked))).toBe('dir');
    }
  });
});
