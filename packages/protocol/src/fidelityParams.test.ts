import { describe, expect, it } from 'vitest';
import { parseParams } from './validate.js';

const fails = (run: () => unknown): { code: string; details: { field: string } } => {
  try {
    run();
  } catch (error) {
    return error as { code: string; details: { field: string } };
  }
  throw new Error('expected invalid_arguments');
};

describe('drag targets', () => {
  it('takes a ref, a CSS selector, or a point', () => {
    expect(parseParams('drag', { from: 'e1', to: 'e2' })).toEqual({ from: 'e1', to: 'e2' });
    expect(parseParams('drag', { from: 'e1', toSelector: '#bin' })).toEqual({ from: 'e1', toSelector: '#bin' });
    expect(parseParams('drag', { from: 'e1', toX: 10, toY: 0 })).toEqual({ from: 'e1', toX: 10, toY: 0 });
  });

  it('refuses none, several, or half a point, naming the field', () => {
    expect(fails(() => parseParams('drag', { from: 'e1' }))).toMatchObject({ code: 'invalid_arguments', details: { field: 'to' } });
    expect(fails(() => parseParams('drag', { from: 'e1', to: 'e2', toSelector: 'x' }))).toMatchObject({ code: 'invalid_arguments', details: { field: 'to' } });
    expect(fails(() => parseParams('drag', { from: 'e1', toX: 5 }))).toMatchObject({ code: 'invalid_arguments', details: { field: 'toY' } });
    expect(fails(() => parseParams('drag', { from: 'e1', toX: -1, toY: 3 }))).toMatchObject({ code: 'invalid_arguments', details: { field: 'toX' } });
  });
});

describe('--frame on the readers', () => {
  it('is a ref on get, wait and js', () => {
    expect(parseParams('get', { what: 'text', selector: 'h1', frame: 'e7' })).toMatchObject({ frame: 'e7' });
    expect(parseParams('wait', { text: 'Paid', frame: 'e7' })).toMatchObject({ frame: 'e7' });
    expect(parseParams('js', { expression: '1', frame: 'e7' })).toMatchObject({ frame: 'e7' });
    expect(fails(() => parseParams('js', { expression: '1', frame: '#iframe' }))).toMatchObject({ code: 'invalid_arguments', details: { field: 'frame' } });
  });
});

describe('click counts', () => {
  it('goes up to a triple click', () => {
    expect(parseParams('click', { ref: 'e1', clickCount: 3 })).toMatchObject({ clickCount: 3 });
    expect(fails(() => parseParams('click', { ref: 'e1', clickCount: 4 }))).toMatchObject({ code: 'invalid_arguments', details: { field: 'clickCount' } });
  });
});
