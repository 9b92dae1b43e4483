import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invalidField as fieldOf } from '@chrome-relay/protocol/src/testing/invalidField.js';
import { parseParams } from '@chrome-relay/protocol';
import { parseModifiers, parseScope, scrollParams, uploadParams } from './elementArgs.js';


describe('upload arguments', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cr-args-'));
  writeFileSync(join(dir, 'a.txt'), 'a');
  mkdirSync(join(dir, 'sub'));

  it('takes a ref then files, made absolute; --via takes only files', () => {
    expect(uploadParams(['@e7', 'a.txt'], undefined, dir)).toEqual({ ref: 'e7', files: [join(dir, 'a.txt')] });
    expect(uploadParams([join(dir, 'a.txt')], '@e8', '/')).toEqual({ ref: 'e8', files: [join(dir, 'a.txt')], via: true });
  });

  it('names the field of bad input: missing file, a directory, no files, a bad ref', () => {
    expect(fieldOf(() => uploadParams(['@e7', 'nope.txt'], undefined, dir))).toBe('files');
    expect(fieldOf(() => uploadParams(['@e7', 'sub'], undefined, dir))).toBe('files');
    expect(fieldOf(() => uploadParams(['@e7'], undefined, dir))).toBe('files');
    expect(fieldOf(() => uploadParams([], undefined, dir))).toBe('ref');
    expect(fieldOf(() => uploadParams(['a.txt'], 'button', dir))).toBe('via');
    expect(fieldOf(() => uploadParams(['#x', 'a.txt'], undefined, dir))).toBe('ref');
  });
});

describe('scroll arguments', () => {
  it('direction [amount] [--in ref] or --into-view ref', () => {
    expect(scrollParams('down', undefined, {})).toEqual({ direction: 'down' });
    expect(scrollParams('left', '250', { in: '@e3' })).toEqual({ direction: 'left', amount: 250, ref: 'e3' });
    expect(scrollParams(undefined, undefined, { intoView: '@e9' })).toEqual({ ref: 'e9', intoView: true });
  });

  it('names the field of bad input', () => {
    expect(fieldOf(() => scrollParams(undefined, undefined, {}))).toBe('direction');
    expect(fieldOf(() => scrollParams('sideways', undefined, {}))).toBe('direction');
    expect(fieldOf(() => scrollParams('down', '-5', {}))).toBe('amount');
    expect(fieldOf(() => scrollParams('down', '1.5', {}))).toBe('amount');
    expect(fieldOf(() => scrollParams('down', undefined, { intoView: '@e2' }))).toBe('direction');
    expect(fieldOf(() => scrollParams('down', undefined, { in: 'box' }))).toBe('in');
    expect(fieldOf(() => scrollParams(undefined, undefined, { intoView: 'e0' }))).toBe('into-view');
  });
});

describe('click and snapshot options', () => {
  it('parses modifiers case-insensitively with aliases, once each', () => {
    expect(parseModifiers('Shift,control')).toEqual(['Shift', 'Control']);
    expect(parseModifiers('ctrl+shift+ctrl')).toEqual(['Control', 'Shift']);
    expect(fieldOf(() => parseModifiers('Hyper'))).toBe('modifiers');
    expect(fieldOf(() => parseModifiers(','))).toBe('modifiers');
  });

  it('reads a scope as a ref when it starts with @, else a CSS selector', () => {
    expect(parseScope('@e12')).toEqual({ scopeRef: 'e12' });
    expect(parseScope('form#login')).toEqual({ scopeSelector: 'form#login' });
    expect(fieldOf(() => parseScope('@nope'))).toBe('scope');
    expect(fieldOf(() => parseScope('  '))).toBe('scope');
  });
});

describe('element tool schemas reject bad params naming the field', () => {
  const field = (tool: Parameters<typeof parseParams>[0], params: Record<string, unknown>): unknown => fieldOf(() => parseParams(tool, params, 'cli'));
  it.each([
    ['fill', { ref: 'e1' }, 'value'],
    ['fill', { ref: 'x1', value: 'a' }, 'ref'],
    ['select', { ref: 'e1', values: [] }, 'values'],
    ['check', {}, 'ref'],
    ['drag', { from: 'e1' }, 'to'],
    ['upload', { ref: 'e1', files: [] }, 'files'],
    ['scroll', { direction: 'north' }, 'direction'],
    ['click', { ref: 'e1', clickCount: 5 }, 'clickCount'],
    ['click', { ref: 'e1', modifiers: ['Hyper'] }, 'modifiers'],
    ['snapshot', { depth: -1 }, 'depth'],
  ] as const)('%s %j → %s', (tool, params, name) => {
    expect(String(field(tool, params))).toMatch(new RegExp(`^${name}`));
  });
});
