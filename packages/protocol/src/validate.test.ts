import { describe, expect, it } from 'vitest';
import { RelayError } from './errors.js';
import { parseRef } from './refs.js';
import { parseParams } from './validate.js';

function invalid(run: () => unknown): RelayError {
  try {
    run();
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('expected invalid_arguments');
}

describe('parseParams', () => {
  it('a missing param says it is required and shows the usage line (not "expected string, received undefined")', () => {
    const fill = invalid(() => parseParams('fill', { value: 'x' }));
    expect(fill.toData()).toMatchObject({ code: 'invalid_arguments', details: { field: 'ref' } });
    expect(fill.message).toBe('Invalid arguments for `fill`: ref: is required (usage: `chrome-relay fill <ref> <value>`).');
    expect(invalid(() => parseParams('navigate', {})).message).toContain('url: is required (usage: `chrome-relay navigate <url>`)');
    // A value of the wrong type is not missing: zod's own words.
    expect(invalid(() => parseParams('fill', { ref: 12, value: 'x' })).message).not.toContain('is required');
  });

  it('one ref grammar: @e12 and e12 both pass and reach the tool as e12; anything else is refused naming the rule', () => {
    expect(parseParams('click', { ref: '@e9' })).toEqual({ ref: 'e9' });
    expect(parseParams('click', { ref: 'e9' })).toEqual({ ref: 'e9' });
    expect(parseParams('drag', { from: '@e1', to: 'e2' })).toMatchObject({ from: 'e1', to: 'e2' });
    for (const bad of ['e0', '@@e1', 'e01', 'E1', '#e1', 'e1234567890123456']) {
      expect(invalid(() => parseParams('click', { ref: bad })).message, bad).toContain('must be a ref like @e12 (or e12)');
    }
    expect([' @e3 ', 'e3', '@e3', 'e03', '@e'].map(parseRef)).toEqual(['e3', 'e3', 'e3', null, null]);
  });
});
