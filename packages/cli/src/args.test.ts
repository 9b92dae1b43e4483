import { describe, expect, it } from 'vitest';
import { invalidField as fieldOf } from '@chrome-relay/protocol/src/testing/invalidField.js';
import { parseIntArg, parseNumberText, parseRefArg, parseTab } from './args.js';

describe('argument parsers', () => {
  it('accepts refs with or without @ and rejects anything else naming the field', () => {
    expect(parseRefArg('@e12')).toBe('e12');
    expect(parseRefArg('e7')).toBe('e7');
    expect(fieldOf(() => parseRefArg('@e0'))).toBe('ref');
    expect(fieldOf(() => parseRefArg('#submit'))).toBe('ref');
  });

  it('parses tab ids as positive whole numbers', () => {
    expect(parseTab('42')).toBe(42);
    expect(fieldOf(() => parseTab('4.5'))).toBe('tab');
    expect(fieldOf(() => parseTab('0'))).toBe('tab');
    expect(fieldOf(() => parseTab('x'))).toBe('tab');
  });

  it('bounds integers; numbers as typed, whole ones for integer params', () => {
    expect(fieldOf(() => parseIntArg('timeout', { max: 10 })('11'))).toBe('timeout');
    expect(parseNumberText('x', '12.5', false)).toBe(12.5);
    expect(parseNumberText('depth', '-3', true)).toBe(-3);
    expect(fieldOf(() => parseNumberText('depth', '1.5', true))).toBe('depth');
    expect(fieldOf(() => parseNumberText('x', '12px', false))).toBe('x');
    expect(fieldOf(() => parseNumberText('x', '', false))).toBe('x');
  });
});
