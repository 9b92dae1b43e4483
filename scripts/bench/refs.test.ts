import { describe, expect, it } from 'vitest';
import { findRef, requireRef } from './refs.js';

const relay = `# Small form — http://127.0.0.1:1/bench/small [tab=7]
- button "Increment" [ref=e3]
- textbox "Name" [ref=e4]: "Ada"
- textbox "Notes" [ref=e5]
- checkbox "Agree to terms" [ref=e6]
- combobox "Country" [ref=e7]: "United States":
  - option "United States" [selected] [ref=e8]`;

const agentBrowser = `- heading "Account" [level=1, ref=e1]
- button "Increment" [ref=e2]
- textbox "Name" [ref=e6]: old
- checkbox "Agree to terms" [checked=false, ref=e9]
- combobox "Country" [expanded=false, ref=e8]: United States`;

describe('findRef', () => {
  it('finds refs in both tools’ formats', () => {
    expect(findRef(relay, 'button', 'Increment')).toBe('e3');
    expect(findRef(relay, 'combobox', 'Country')).toBe('e7');
    expect(findRef(agentBrowser, 'checkbox', 'Agree')).toBe('e9');
    expect(findRef(agentBrowser, 'textbox', 'Name')).toBe('e6');
  });

  it('needs the role as a word, not inside another word or name', () => {
    expect(findRef('- listbox "Name" [ref=e1]\n- textbox "Name" [ref=e2]', 'box', 'Name')).toBeUndefined();
    expect(findRef('- row "Item button Open" [ref=e1]\n  - button "Open" [ref=e2]', 'button', 'Open')).toBe('e2');
  });

  it('survives other quoting of names', () => {
    expect(findRef('- button Increment [ref=e9]', 'button', 'Increment')).toBe('e9');
    expect(findRef("- button 'Increment' [ref=e9]", 'button', 'Increment')).toBe('e9');
  });

  it('requireRef names what it looked for', () => {
    expect(() => requireRef(relay, 'button', 'Submit')).toThrow(/no ref for button "Submit"/);
  });
});
