import { describe, expect, it } from 'vitest';
import { testsValueAttribute } from './selectors.js';

describe('testsValueAttribute: a selector that could ask about a secret field\'s value attribute', () => {
  it.each([
    'input[value^="P"]',
    '#password[value]',
    '[value="x" i]',
    'input[ value *= "a" ]',
    'input[VALUE^=P]',
    'input[vAlUe$=x]',
    'input[v\\61lue^=P]',
    'input[\\76 alue^=P]',
    'input[\\000076alue^=P]',
    'input[val\\ue^=P]',
    'input[/* hide */value^=P]',
    'input[*|value^=P]',
    'input[|value^=P]',
    'form:has(input[value^=P])',
    ':is(#a, [value~=x])',
    ':not([value|=x])',
  ])('%s tests it', (selector) => {
    expect(testsValueAttribute(selector)).toBe(true);
  });

  it.each(['#password', 'input[type=password]', 'input[name="value"]', 'input[data-value^=P]', '[valuex=1]', 'input:placeholder-shown', 'a[href*=value]'])('%s does not', (selector) => {
    expect(testsValueAttribute(selector)).toBe(false);
  });
});
