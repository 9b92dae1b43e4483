import { describe, expect, it } from 'vitest';
import { invalidField as fieldOf } from '@chrome-relay/protocol/src/testing/invalidField.js';
import { parseChoice, parseIntArg, parseRefArg, parseTab } from './args.js';


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

  it('bounds integers and checks choices', () => {
    expect(fieldOf(() => parseIntArg('timeout', { max: 10 })('11'))).toBe('timeout');
    expect(parseChoice('wait', ['load', 'none'] as const)('none')).toBe('none');
    expect(fieldOf(() => parseChoice('wait', ['load', 'none'] as const)('idle'))).toBe('wait');
  });
});
