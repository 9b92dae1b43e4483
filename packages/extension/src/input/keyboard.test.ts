import { describe, expect, it } from 'vitest';
import { invalidField as fieldOf } from '@chrome-relay/protocol/src/testing/invalidField.js';
import { comboEvents, formatCombo, parseCombo, planTyping } from './keyboard.js';


describe('parseCombo', () => {
  it('reads named keys case-insensitively, characters exactly, and modifiers in order', () => {
    expect(formatCombo(parseCombo('enter', 'other'))).toBe('Enter');
    expect(formatCombo(parseCombo('Shift+Tab', 'other'))).toBe('Shift+Tab');
    expect(formatCombo(parseCombo('ctrl+a', 'other'))).toBe('Control+a');
    expect(formatCombo(parseCombo('Control+Shift+a', 'other'))).toBe('Control+Shift+A');
    expect(formatCombo(parseCombo('A', 'other'))).toBe('A');
    expect(formatCombo(parseCombo('+', 'other'))).toBe('+');
    expect(formatCombo(parseCombo('Control++', 'other'))).toBe('Control++');
    expect(formatCombo(parseCombo('Space', 'other'))).toBe('Space');
  });

  it('maps ControlOrMeta to the platform key', () => {
    expect(formatCombo(parseCombo('ControlOrMeta+a', 'mac'))).toBe('Meta+a');
    expect(formatCombo(parseCombo('ControlOrMeta+a', 'other'))).toBe('Control+a');
  });

  it('rejects unknown keys, unknown modifiers and empty parts on field keys, naming the part', () => {
    expect(fieldOf(() => parseCombo('Banana', 'other'))).toBe('keys');
    expect(fieldOf(() => parseCombo('Hyper+a', 'other'))).toBe('keys');
    expect(fieldOf(() => parseCombo('Control+', 'other'))).toBe('keys');
    expect(fieldOf(() => parseCombo('', 'other'))).toBe('keys');
    expect(() => parseCombo('Control+Banana', 'other')).toThrow(/Banana/);
  });
});

describe('comboEvents', () => {
  it('holds modifiers around the key with the right bits, and releases them in reverse', () => {
    const events = comboEvents(parseCombo('Shift+Tab', 'other'), 'other');
    expect(events.map((e) => [e.type, e.key, e.modifiers])).toEqual([
      ['rawKeyDown', 'Shift', 8],
      ['rawKeyDown', 'Tab', 8],
      ['keyUp', 'Tab', 8],
      ['keyUp', 'Shift', 0],
    ]);
    expect(events[1]).toMatchObject({ code: 'Tab', windowsVirtualKeyCode: 9 });
  });

  it('types text only without a command modifier', () => {
    const plain = comboEvents(parseCombo('a', 'other'), 'other');
    expect(plain[0]).toMatchObject({ type: 'keyDown', key: 'a', code: 'KeyA', windowsVirtualKeyCode: 65, text: 'a', modifiers: 0 });
    const control = comboEvents(parseCombo('Control+a', 'other'), 'other');
    expect(control[1]).toMatchObject({ type: 'rawKeyDown', key: 'a', modifiers: 2 });
    expect(control[1]).not.toHaveProperty('text');
    const enter = comboEvents(parseCombo('Enter', 'other'), 'other');
    expect(enter[0]).toMatchObject({ type: 'keyDown', text: '\r', windowsVirtualKeyCode: 13 });
  });

  it('sends shifted characters with Shift set, as a keyboard would', () => {
    expect(comboEvents(parseCombo('!', 'other'), 'other')[0]).toMatchObject({ key: '!', code: 'Digit1', text: '!', modifiers: 8 });
    expect(comboEvents(parseCombo('Shift+1', 'other'), 'other')[1]).toMatchObject({ key: '!', code: 'Digit1', text: '!', modifiers: 8 });
  });

  it('adds macOS editing commands only on mac', () => {
    expect(comboEvents(parseCombo('Meta+a', 'mac'), 'mac')[1]).toMatchObject({ commands: ['selectAll'] });
    expect(comboEvents(parseCombo('Backspace', 'mac'), 'mac')[0]).toMatchObject({ commands: ['deleteBackward'] });
    expect(comboEvents(parseCombo('Backspace', 'other'), 'other')[0]).not.toHaveProperty('commands');
  });
});

describe('planTyping', () => {
  it('presses keys for US-keyboard characters and inserts runs of the others', () => {
    const steps = planTyping('Hé😀!');
    expect(steps.map((s) => (s.kind === 'key' ? `key:${formatCombo(s.combo)}` : `insert:${s.text}`))).toEqual(['key:H', 'insert:é😀', 'key:!']);
    expect(steps.reduce((n, s) => n + s.chars, 0)).toBe(4);
  });

  it('turns newlines and tabs into Enter and Tab, CRLF into one Enter', () => {
    const steps = planTyping('a\r\nb\tc');
    expect(steps.map((s) => (s.kind === 'key' ? formatCombo(s.combo) : s.text))).toEqual(['a', 'Enter', 'b', 'Tab', 'c']);
  });
});
