/**
 * Trusted keyboard input through CDP Input.dispatchKeyEvent, with the key/code/keyCode/text a US
 * keyboard produces, so pages that read `event.key`, `event.code` or the legacy `keyCode` see what
 * a person's keyboard would send.
 *
 * Two entry points:
 * - parseCombo/pressCombo: "Enter", "Shift+Tab", "Control+a". Modifiers go down in order, the key is
 *   pressed and released, modifiers come up in reverse. A key that produces text (letters, Enter…)
 *   carries it only while no Control/Alt/Meta is held, as on a real keyboard.
 * - planTyping: a string becomes per-character key presses for every character a US keyboard has
 *   (keydown → keypress → beforeinput(insertText) → input → keyup, verified in Chromium 156 in a
 *   contenteditable and an <input>), and Input.insertText for runs of characters it has not (é, 😀,
 *   中文: one beforeinput(insertText) + input, also verified). Newline and tab are the Enter and
 *   Tab keys.
 *
 * On macOS, Chrome's editing shortcuts (select all, delete word, move to line end…) come from the
 * OS key bindings, which synthetic events bypass; CDP's `commands` field supplies them. The table
 * below covers the common ones. It is not verified here (no macOS machine), only on Linux, where
 * Chromium handles the same combos in the renderer (Control+a selects all, verified).
 */
import { RelayError } from '@chrome-relay/protocol';
import type { CallContext } from '../context/call.js';
import { assertLanded, type Landed } from './landing.js';

export interface KeyDefinition {
  /** `KeyboardEvent.key` without Shift. */
  readonly key: string;
  readonly code: string;
  readonly keyCode: number;
  /** Text produced without Shift (absent: the key types nothing). */
  readonly text?: string;
  /** `key` and text with Shift held, for keys whose character changes. */
  readonly shiftKey?: string;
  /** 1 = left (modifier keys). */
  readonly location?: number;
}

/** CDP modifier bits: Alt=1, Ctrl=2, Meta=4, Shift=8. */
export const MODIFIER_BITS = { Alt: 1, Control: 2, Meta: 4, Shift: 8 } as const;
export type Modifier = keyof typeof MODIFIER_BITS;

const NAMED_KEYS: readonly KeyDefinition[] = [
  { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  { key: 'Tab', code: 'Tab', keyCode: 9 },
  { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  { key: 'Delete', code: 'Delete', keyCode: 46 },
  { key: 'Escape', code: 'Escape', keyCode: 27 },
  { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  { key: 'Home', code: 'Home', keyCode: 36 },
  { key: 'End', code: 'End', keyCode: 35 },
  { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  { key: 'Insert', code: 'Insert', keyCode: 45 },
  { key: 'CapsLock', code: 'CapsLock', keyCode: 20 },
  { key: 'ContextMenu', code: 'ContextMenu', keyCode: 93 },
  { key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 },
  { key: 'Control', code: 'ControlLeft', keyCode: 17, location: 1 },
  { key: 'Alt', code: 'AltLeft', keyCode: 18, location: 1 },
  { key: 'Meta', code: 'MetaLeft', keyCode: 91, location: 1 },
  ...Array.from({ length: 12 }, (_, i): KeyDefinition => ({ key: `F${i + 1}`, code: `F${i + 1}`, keyCode: 112 + i })),
];

/** Printable keys of a US layout: [unshifted, shifted, code, keyCode]. */
const PRINTABLE: ReadonlyArray<readonly [string, string, string, number]> = [
  ['`', '~', 'Backquote', 192],
  ['-', '_', 'Minus', 189],
  ['=', '+', 'Equal', 187],
  ['[', '{', 'BracketLeft', 219],
  [']', '}', 'BracketRight', 221],
  ['\\', '|', 'Backslash', 220],
  [';', ':', 'Semicolon', 186],
  ["'", '"', 'Quote', 222],
  [',', '<', 'Comma', 188],
  ['.', '>', 'Period', 190],
  ['/', '?', 'Slash', 191],
  ...['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].map(
    (digit, i) => [digit, ')!@#$%^&*('.charAt(i), `Digit${digit}`, 48 + i] as const,
  ),
  ...Array.from({ length: 26 }, (_, i) => {
    const lower = String.fromCharCode(97 + i);
    return [lower, lower.toUpperCase(), `Key${lower.toUpperCase()}`, 65 + i] as const;
  }),
];

const SPACE: KeyDefinition = { key: ' ', code: 'Space', keyCode: 32, text: ' ' };

/** Named keys by lower-case name (names are matched case-insensitively; "Space" and "Esc" are aliases). */
const BY_NAME = new Map<string, KeyDefinition>([
  ...NAMED_KEYS.map((def) => [def.key.toLowerCase(), def] as const),
  ['space', SPACE],
  ['esc', { key: 'Escape', code: 'Escape', keyCode: 27 }],
  ['return', { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' }],
]);

/** Every character a US keyboard types, with the key and whether Shift is needed. */
const BY_CHAR = new Map<string, { def: KeyDefinition; shift: boolean }>();
for (const [plain, shifted, code, keyCode] of PRINTABLE) {
  const def: KeyDefinition = { key: plain, code, keyCode, text: plain, shiftKey: shifted };
  BY_CHAR.set(plain, { def, shift: false });
  BY_CHAR.set(shifted, { def, shift: true });
}
BY_CHAR.set(' ', { def: SPACE, shift: false });

const MODIFIER_NAMES = new Map<string, Modifier | 'ControlOrMeta'>([
  ['shift', 'Shift'],
  ['control', 'Control'],
  ['ctrl', 'Control'],
  ['alt', 'Alt'],
  ['option', 'Alt'],
  ['meta', 'Meta'],
  ['cmd', 'Meta'],
  ['command', 'Meta'],
  ['controlormeta', 'ControlOrMeta'],
]);

export interface Combo {
  readonly modifiers: readonly Modifier[];
  readonly def: KeyDefinition;
  /** Shift is implied by the character itself ("A", "!"), not named. */
  readonly impliedShift: boolean;
}

export type Platform = 'mac' | 'other';

function badKey(combo: string, why: string): RelayError {
  return new RelayError('invalid_arguments', `Invalid arguments for keys: "${combo}" ${why}.`, {
    tool: 'keys',
    phase: 'validate',
    details: { field: 'keys', value: combo },
  });
}

/** A single key name or character: "Enter", "a", "A", "!", "F5". */
function keyOf(name: string, combo: string): { def: KeyDefinition; shift: boolean } {
  const byChar = [...name].length === 1 ? BY_CHAR.get(name) : undefined;
  if (byChar) return byChar;
  const byName = BY_NAME.get(name.toLowerCase());
  if (byName) return { def: byName, shift: false };
  throw badKey(
    combo,
    `names an unknown key "${name}"; use a character (a, A, 1, !) or a key name such as Enter, Tab, Escape, Backspace, Delete, ArrowUp, Home, PageDown, F5, Space`,
  );
}

/** Parse "Control+Shift+a" (modifiers first, one key last). "+" itself is written "+" or "Shift++". */
export function parseCombo(combo: string, platform: Platform): Combo {
  const trimmed = combo.trim();
  if (trimmed === '') throw badKey(combo, 'is empty');
  let keyName: string;
  let modifierNames: string[];
  if (trimmed === '+') {
    keyName = '+';
    modifierNames = [];
  } else if (trimmed.endsWith('++')) {
    keyName = '+';
    modifierNames = trimmed.slice(0, -2).split('+');
  } else {
    const parts = trimmed.split('+');
    keyName = parts.pop() ?? '';
    modifierNames = parts;
  }
  if (keyName === '' || modifierNames.some((m) => m === '')) throw badKey(combo, 'has an empty part; write combinations like Control+a or Shift+Tab');

  const modifiers: Modifier[] = [];
  for (const name of modifierNames) {
    const found = MODIFIER_NAMES.get(name.toLowerCase());
    if (!found) throw badKey(combo, `uses "${name}" as a modifier; modifiers are Shift, Control, Alt, Meta and ControlOrMeta`);
    const modifier = found === 'ControlOrMeta' ? (platform === 'mac' ? 'Meta' : 'Control') : found;
    if (!modifiers.includes(modifier)) modifiers.push(modifier);
  }
  const { def, shift } = keyOf(keyName, combo);
  // A modifier key pressed on its own ("Shift") is just that key, held and released.
  return { modifiers, def, impliedShift: shift };
}

/** CDP's modifier bit field for a set of held modifiers (keys and clicks alike). */
export function modifierMask(modifiers: readonly Modifier[]): number {
  return modifiers.reduce((mask, m) => mask | MODIFIER_BITS[m], 0);
}

/** Canonical spelling, e.g. "Control+Shift+A". */
export function formatCombo(combo: Combo): string {
  return [...combo.modifiers, keyLabel(combo)].join('+');
}

function keyLabel(combo: Combo): string {
  const shifted = combo.impliedShift || combo.modifiers.includes('Shift');
  if (combo.def.key === ' ') return 'Space';
  return shifted && combo.def.shiftKey !== undefined ? combo.def.shiftKey : combo.def.key;
}

/** macOS editing commands for synthetic key events (see header). Keys: canonical combo spelling. */
const MAC_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  Backspace: ['deleteBackward'],
  Delete: ['deleteForward'],
  Enter: ['insertNewline'],
  Tab: ['insertTab'],
  'Shift+Tab': ['insertBacktab'],
  ArrowLeft: ['moveLeft'],
  ArrowRight: ['moveRight'],
  ArrowUp: ['moveUp'],
  ArrowDown: ['moveDown'],
  'Shift+ArrowLeft': ['moveLeftAndModifySelection'],
  'Shift+ArrowRight': ['moveRightAndModifySelection'],
  'Shift+ArrowUp': ['moveUpAndModifySelection'],
  'Shift+ArrowDown': ['moveDownAndModifySelection'],
  'Alt+ArrowLeft': ['moveWordLeft'],
  'Alt+ArrowRight': ['moveWordRight'],
  'Alt+Backspace': ['deleteWordBackward'],
  'Meta+ArrowLeft': ['moveToLeftEndOfLine'],
  'Meta+ArrowRight': ['moveToRightEndOfLine'],
  'Meta+ArrowUp': ['moveToBeginningOfDocument'],
  'Meta+ArrowDown': ['moveToEndOfDocument'],
  'Meta+Backspace': ['deleteToBeginningOfLine'],
  Home: ['scrollToBeginningOfDocument'],
  End: ['scrollToEndOfDocument'],
  PageUp: ['scrollPageUp'],
  PageDown: ['scrollPageDown'],
  'Meta+a': ['selectAll'],
  'Meta+c': ['copy'],
  'Meta+x': ['cut'],
  'Meta+v': ['paste'],
  'Meta+z': ['undo'],
  'Meta+Shift+Z': ['redo'],
};

type KeyEventParams = {
  type: 'keyDown' | 'rawKeyDown' | 'keyUp';
  key: string;
  code: string;
  windowsVirtualKeyCode: number;
  modifiers: number;
  text?: string;
  unmodifiedText?: string;
  location?: number;
  commands?: string[];
};

/** The CDP events of one combination, in order (pure: unit-tested). */
export function comboEvents(combo: Combo, platform: Platform): KeyEventParams[] {
  const events: KeyEventParams[] = [];
  let held = 0;
  for (const modifier of combo.modifiers) {
    const def = BY_NAME.get(modifier.toLowerCase());
    if (!def) continue;
    held |= MODIFIER_BITS[modifier];
    events.push(keyEvent('rawKeyDown', def, def.key, held));
  }
  const shifted = combo.impliedShift || combo.modifiers.includes('Shift');
  const mask = held | (combo.impliedShift ? MODIFIER_BITS.Shift : 0);
  const key = keyLabel(combo) === 'Space' ? ' ' : keyLabel(combo);
  // Text only when no command modifier is held: Control+a selects, it does not type "a".
  const commandHeld = (mask & (MODIFIER_BITS.Control | MODIFIER_BITS.Alt | MODIFIER_BITS.Meta)) !== 0;
  const baseText = combo.def.text === undefined ? undefined : shifted && combo.def.shiftKey !== undefined ? combo.def.shiftKey : combo.def.text;
  const text = commandHeld ? undefined : baseText;
  // A modifier pressed alone is already "held" by its own keydown, like a real key.
  const ownBit = (MODIFIER_BITS as Record<string, number | undefined>)[combo.def.key] ?? 0;
  const down = keyEvent(text === undefined ? 'rawKeyDown' : 'keyDown', combo.def, key, mask | ownBit, text);
  if (platform === 'mac') {
    const commands = MAC_COMMANDS[formatCombo(combo)];
    if (commands) down.commands = [...commands];
  }
  events.push(down);
  events.push(keyEvent('keyUp', combo.def, key, mask));
  for (const modifier of [...combo.modifiers].reverse()) {
    const def = BY_NAME.get(modifier.toLowerCase());
    if (!def) continue;
    held &= ~MODIFIER_BITS[modifier];
    events.push(keyEvent('keyUp', def, def.key, held));
  }
  return events;
}

function keyEvent(type: KeyEventParams['type'], def: KeyDefinition, key: string, modifiers: number, text?: string): KeyEventParams {
  const event: KeyEventParams = { type, key, code: def.code, windowsVirtualKeyCode: def.keyCode, modifiers };
  if (text !== undefined) {
    event.text = text;
    event.unmodifiedText = text;
  }
  if (def.location !== undefined) event.location = def.location;
  return event;
}

/** One step of typing: a key press, or a run of characters inserted as text. */
export type TypingStep = { kind: 'key'; combo: Combo; chars: number } | { kind: 'insert'; text: string; chars: number };

/** Split text into key presses and insertText runs (pure: unit-tested). "\r\n" is one line break. */
export function planTyping(text: string): TypingStep[] {
  const steps: TypingStep[] = [];
  const enter = BY_NAME.get('enter');
  const tab = BY_NAME.get('tab');
  for (const char of text.replace(/\r\n/g, '\n')) {
    const special = char === '\n' || char === '\r' ? enter : char === '\t' ? tab : undefined;
    const found = special ? { def: special, shift: false } : BY_CHAR.get(char);
    if (found) {
      steps.push({ kind: 'key', combo: { modifiers: [], def: found.def, impliedShift: found.shift }, chars: 1 });
      continue;
    }
    const last = steps.at(-1);
    if (last?.kind === 'insert') steps[steps.length - 1] = { kind: 'insert', text: last.text + char, chars: last.chars + 1 };
    else steps.push({ kind: 'insert', text: char, chars: 1 });
  }
  return steps;
}

export async function pressCombo(ctx: Pick<CallContext, 'cdp'>, landed: Landed, tabId: number, combo: Combo, platform: Platform): Promise<void> {
  assertLanded(landed, tabId);
  for (const event of comboEvents(combo, platform)) await ctx.cdp.send(tabId, 'Input.dispatchKeyEvent', event);
}

export async function typeStep(ctx: Pick<CallContext, 'cdp'>, landed: Landed, tabId: number, step: TypingStep, platform: Platform): Promise<void> {
  if (step.kind === 'insert') await insertText(ctx, landed, tabId, step.text);
  else await pressCombo(ctx, landed, tabId, step.combo, platform);
}

/** Text where focus is, as one trusted insertion (beforeinput(insertText) + input, as an IME commits it). */
export async function insertText(ctx: Pick<CallContext, 'cdp'>, landed: Landed, tabId: number, text: string): Promise<void> {
  assertLanded(landed, tabId);
  await ctx.cdp.send(tabId, 'Input.insertText', { text });
}

/** Clear the selected text with a trusted Delete key press (an insertion of "" inserts nothing). */
export async function pressDelete(ctx: Pick<CallContext, 'cdp'>, landed: Landed, tabId: number): Promise<void> {
  assertLanded(landed, tabId);
  const key = { key: 'Delete', code: 'Delete', windowsVirtualKeyCode: 46, nativeVirtualKeyCode: 46 };
  await ctx.cdp.send(tabId, 'Input.dispatchKeyEvent', { type: 'rawKeyDown', ...key });
  await ctx.cdp.send(tabId, 'Input.dispatchKeyEvent', { type: 'keyUp', ...key });
}

/** The platform of this browser, for ControlOrMeta and macOS editing commands. */
export function currentPlatform(): Platform {
  const nav = globalThis.navigator as (Navigator & { userAgentData?: { platform?: string } }) | undefined;
  const name = nav?.userAgentData?.platform ?? nav?.platform ?? '';
  return /mac/i.test(name) ? 'mac' : 'other';
}
