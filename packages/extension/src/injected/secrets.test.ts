// @vitest-environment happy-dom
/** Which fields are the person's secrets: every road that could show a value asks this one rule. */
import { afterEach, describe, expect, it } from 'vitest';
import { isSecretField } from './secrets.js';

afterEach(() => {
  document.body.innerHTML = '';
});

function render(html: string): Element {
  document.body.innerHTML = html;
  const element = document.body.firstElementChild;
  if (element === null) throw new Error(`nothing in ${html}`);
  return element;
}

describe('isSecretField: the fields whose value is never shown', () => {
  it('a password, and a field the page marks as a password or a one-time code', () => {
    expect(isSecretField(render('<input type="password">'))).toBe(true);
    expect(isSecretField(render('<input autocomplete="current-password">'))).toBe(true);
    expect(isSecretField(render('<input autocomplete="new-password">'))).toBe(true);
    expect(isSecretField(render('<input autocomplete="one-time-code" inputmode="numeric">'))).toBe(true);
    expect(isSecretField(render('<input autocomplete="section-2 shipping one-time-code">'))).toBe(true);
  });

  it('not a plain field, a username, or a password-looking name without the markings', () => {
    expect(isSecretField(render('<input type="text" value="x">'))).toBe(false);
    expect(isSecretField(render('<input autocomplete="username">'))).toBe(false);
    expect(isSecretField(render('<input name="password">'))).toBe(false);
    expect(isSecretField(render('<input autocomplete="one-time-codes">'))).toBe(false);
    expect(isSecretField(render('<textarea autocomplete="one-time-code"></textarea>'))).toBe(false);
  });
});
