import { describe, expect, it } from 'vitest';
import { formattedAs } from './formattedValue.js';

describe('formattedAs: the value as the page formats it, or another value', () => {
  it('a mask that inserts, moves or drops separators and spacing keeps the value', () => {
    expect(formattedAs('12/34', '12 / 34')).toBe(true);
    expect(formattedAs('4242424242424242', '4242 4242 4242 4242')).toBe(true);
    expect(formattedAs('5551234567', '(555) 123-4567')).toBe(true);
    expect(formattedAs('555 123 4567', '(555) 123-4567')).toBe(true);
    expect(formattedAs('de89370400440532013000', 'DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(formattedAs('ab12cd', 'AB-12-CD')).toBe(true);
  });

  it('a mask that drops or adds letters or digits changed the value', () => {
    expect(formattedAs('12345', '123')).toBe(false);
    expect(formattedAs('13', '1')).toBe(false);
    expect(formattedAs('12/34', '12 / 3')).toBe(false);
    expect(formattedAs('5551234567', '+1 (555) 123-4567')).toBe(false);
    expect(formattedAs('abc', '')).toBe(false);
  });

  it('a mark taken away without a trace changed the value: a decimal point, a sign', () => {
    expect(formattedAs('1.5', '15')).toBe(false);
    expect(formattedAs('-5', '5')).toBe(false);
    expect(formattedAs('4242-4242-4242-4242', '4242 4242 4242 4242')).toBe(true);
    expect(formattedAs('+15551234567', '+1 (555) 123-4567')).toBe(true);
  });

  it('nothing significant to compare is never "formatted": only the exact value counts', () => {
    expect(formattedAs('/', '')).toBe(false);
    expect(formattedAs('', ' ')).toBe(false);
    expect(formattedAs(' - ', '-')).toBe(false);
  });

  it('an equal value is not a formatted one', () => {
    expect(formattedAs('12 / 34', '12 / 34')).toBe(false);
  });
});
