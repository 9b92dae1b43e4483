/**
 * `fill` on masked inputs (IMask, as payment and contact forms use it): a field that holds the value as the page formats
 * it (`12/34` → `12 / 34`) is a success that says what it holds; a mask that drops what does not fit is still
 * partial_success_disallowed, naming what the field holds — except for a one-time code, which is never echoed.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, until, type Relay } from './harness.js';
import { open, read, refFor, snapshot } from './helpers.js';

let relay: Relay;
let tabId: number;
let page: Page;
let text: string;

beforeAll(async () => {
  relay = await startRelay();
  const tab = await open(relay, '/libs/masked.html');
  tabId = tab.tabId;
  page = await relay.page(tab.path);
  text = await until(async () => {
    const now = await snapshot(relay, tabId);
    return /textbox "Sign-in code"/.test(now) ? now : undefined;
  }, 10_000, 'the masked form');
});
afterAll(async () => {
  await relay.stop();
});

async function fill(label: string, value: string) {
  return relay.cli('fill', refFor(text, new RegExp(`textbox "${label}"`)), value, '--tab', String(tabId), '--json');
}

describe('fill on masked inputs', () => {
  it('a field that formats what is typed holds the value (exit 0, saying what it holds); one that drops characters does not', async () => {
    for (const [label, typed, shown, unmasked] of [
      ['Expiry', '12/34', '12 / 34', '1234'],
      ['Card number', '4242424242424242', '4242 4242 4242 4242', '4242424242424242'],
      ['Phone', '5551234567', '(555) 123-4567', '5551234567'],
    ] as const) {
      const result = await fill(label, typed);
      expect(result.code, `${label}: ${result.stderr}`).toBe(0);
      expect(result.json).toMatchObject({ value: shown, formatted: true });
      expect(await read(page, `window.masked().${label === 'Expiry' ? 'exp' : label === 'Phone' ? 'phone' : 'num'}`)).toBe(unmasked);
    }
    // The value as the page writes it is the plain case: no `formatted`.
    const again = await fill('Expiry', '11 / 30');
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).not.toMatchObject({ formatted: true });

    // The other side of the rule: a mask that drops what does not fit is still an error naming what the field holds.
    const cvc = await fill('CVC', '12345');
    expect(cvc.error, cvc.stderr).toMatchObject({ code: 'partial_success_disallowed', details: { expected: '12345', actual: '123' } });
    expect(cvc.error?.message).toMatch(/now holds "123" instead of "12345"/);
    const month = await fill('Month', '13');
    expect(month.error, month.stderr).toMatchObject({ code: 'partial_success_disallowed', details: { actual: '1' } });
    // A decimal point the field took away without a trace changed the value.
    const expiry = await fill('Expiry', '1.2/34');
    expect(expiry.code).toBe(1);
    expect(expiry.error?.code).toBe('partial_success_disallowed');
  });

  it('a one-time code is compared as the page formats it, and never echoed, in the answer or the error', async () => {
    const ok = await fill('Sign-in code', '123456');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json).toMatchObject({ value: '••••••', formatted: true });
    expect(await read(page, 'window.masked().otp')).toBe('123456');
    const cut = await fill('Sign-in code', '9876543');
    expect(cut.error, cut.stderr).toMatchObject({ code: 'partial_success_disallowed', details: { secret: true } });
    // The answers name the tab by its id, whose digits are the browser's: read them without it.
    const told = (result: typeof ok): string => `${result.stdout}${result.stderr}`.replaceAll(String(tabId), '<tab>');
    expect(told(cut)).not.toMatch(/987|654/);
    expect(told(ok)).not.toMatch(/123/);
  });
});
