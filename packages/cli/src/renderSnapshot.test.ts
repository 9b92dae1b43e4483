import { describe, expect, it } from 'vitest';
import { renderSnapshot } from './renderSnapshot.js';

describe('renderSnapshot', () => {
  it('renders roles, quoted names, state and refs as indented lines', () => {
    const text = renderSnapshot([
      { role: 'heading', name: 'Title', level: 1 },
      {
        role: 'list',
        children: [
          { role: 'listitem', children: [{ role: 'link', name: 'Home', ref: 'e3', url: '/home' }] },
          { role: 'listitem', children: [{ role: 'text', name: 'plain words' }] },
        ],
      },
      { role: 'checkbox', name: 'Agree', checked: 'true', ref: 'e4' },
      { role: 'textbox', name: 'Say "hi"', value: 'hello', ref: 'e5', disabled: true },
    ]);
    expect(text).toBe(
      [
        '- heading "Title" [level=1]',
        '- list:',
        '  - listitem:',
        '    - link "Home" [ref=e3]',
        '  - listitem:',
        '    - text: plain words',
        '- checkbox "Agree" [checked] [ref=e4]',
        '- textbox "Say \\"hi\\"" [disabled] [ref=e5]: "hello"',
      ].join('\n'),
    );
  });

  it('adds link targets only when asked', () => {
    expect(renderSnapshot([{ role: 'link', name: 'Home', ref: 'e3', url: '/home' }], { urls: true })).toBe('- link "Home" [ref=e3] -> /home');
  });
});
