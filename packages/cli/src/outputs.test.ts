import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freeName, moveDownload } from './outputs.js';

describe('download moves', () => {
  it('picks a free name the way browsers do', () => {
    const taken = new Set(['/d/report.pdf', '/d/report (1).pdf']);
    expect(freeName('/d', 'report.pdf', (p) => taken.has(p))).toBe('/d/report (2).pdf');
    expect(freeName('/d', 'notes', () => false)).toBe('/d/notes');
  });

  it('moves the finished file into the armed directory without overwriting', () => {
    const from = mkdtempSync(join(tmpdir(), 'cr-from-'));
    const to = mkdtempSync(join(tmpdir(), 'cr-to-'));
    writeFileSync(join(to, 'a.txt'), 'older');
    writeFileSync(join(from, 'a.txt'), 'new');
    const moved = moveDownload(join(from, 'a.txt'), to);
    expect(moved).toBe(join(to, 'a (1).txt'));
    expect(readFileSync(moved, 'utf8')).toBe('new');
    expect(readFileSync(join(to, 'a.txt'), 'utf8')).toBe('older');
    expect(existsSync(join(from, 'a.txt'))).toBe(false);
  });

  it('reports a failed move on field dir', () => {
    const from = mkdtempSync(join(tmpdir(), 'cr-from-'));
    writeFileSync(join(from, 'a.txt'), 'x');
    expect(() => moveDownload(join(from, 'a.txt'), join(from, 'no-such-dir'))).toThrow(expect.objectContaining({ code: 'invalid_arguments', details: expect.objectContaining({ field: 'dir' }) }));
  });
});
