/**
 * What a press visibly did: the evidence that lets a click whose release went elsewhere still be a success.
 *
 * Widget libraries act on the press, not on the click: Radix Select and DropdownMenu open on pointerdown, MUI Select
 * and react-select on mousedown, Headless UI chooses an option on mousedown and Radix Select on pointerup — and then
 * draw their popup over the point, or unmount the item that was pressed, so the release lands on something else. A
 * person's click did what they wanted; the guard cancelled a release that went to another element, as it must. The
 * press reached the control the agent named (the guard proved it), and what it did is read from the control's own
 * state, before the press (in the guard's listener, ahead of the page's) and after it (when the first event went
 * astray, or when the guard is read):
 * - its aria-expanded turned true: it `opened` its popup (the element it controls or owns, or a listbox, menu, dialog,
 *   tree or grid that appeared), or turned false: `closed`;
 * - aria-checked (or a native checkbox's checked), aria-pressed, aria-selected changed;
 * - a popup of its own became shown: one it controls, owns or announces (aria-controls, aria-owns, aria-haspopup),
 *   or one labelled by it (a menu labelled by its trigger) — an interstitial of no relation proves nothing;
 * - an item of a popup (option, menu item, tree item) was pressed and the popup closed: a menu item was `chosen`; an
 *   option was `selected` when the control that owns its list shows another value now — its own, or, for a combobox
 *   that keeps its input for typing, the field around it, which then shows the option's text (react-select);
 * - a text field got the focus (`focused`): what a press on one is for.
 * Nothing here counts what a press on something else did: the guard never asks it then. A page can of course lie in
 * its own attributes, but only about its own control, which the press did reach.
 */
import { cap, deepActiveElement, flatContains, flatParent, getElementByIdInScope, normalizeText } from './dom.js';
import { explicitName } from './names.js';
import type { PressEffect } from './types.js';

const STATE_ATTRIBUTES = ['aria-expanded', 'aria-checked', 'aria-pressed', 'aria-selected', 'aria-haspopup', 'aria-controls', 'aria-owns'];
const ITEM_ROLES = new Set(['option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);
const MENU_ITEM_ROLES = new Set(['menuitem', 'menuitemcheckbox', 'menuitemradio']);
const CONTAINER_ROLES = new Set(['listbox', 'menu', 'menubar', 'tree', 'treegrid', 'grid']);
const POPUP_SELECTOR = '[role=listbox], [role=menu], [role=dialog], [role=alertdialog], [role=tree], [role=grid], dialog[open]';
/** What aria-haspopup says opens (true means a menu). */
const HASPOPUP_ROLE: Readonly<Record<string, string>> = { true: 'menu', menu: 'menu', listbox: 'listbox', tree: 'tree', grid: 'grid', dialog: 'dialog' };
/** How far up from the pressed element the control that owns the state is looked for (an icon inside a trigger). */
const SUBJECT_DEPTH = 8;
/** How far up from an item its list is looked for. */
const CONTAINER_DEPTH = 12;
/** Popups remembered before the press, at most (a page with thousands of grids needs none of them). */
const MAX_POPUPS = 200;
const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);
const POPUP_NAME_CAP = 40;

/** The control as it was when the press reached it. */
export interface BeforePress {
  subject: Element;
  expanded: string | null;
  checked: string | null;
  pressed: string | null;
  selected: string | null;
  focused: boolean;
  /** Elements it controls or owns that were shown. */
  controlled: Set<Element>;
  /** Popups shown anywhere in the document. */
  popups: Set<Element>;
  /**
   * An item of a list: its text, the list, and the control that owns the list with what it showed as its value (its
   * own; and the text of the field it shows its value in, when it has one).
   */
  item?: { label: string; container: Element; controller: Element | null; value: string | undefined; field: { element: Element; text: string } | null };
}

function editable(element: Element): boolean {
  if (element instanceof HTMLInputElement) return TEXT_INPUT_TYPES.has(element.type);
  if (element instanceof HTMLTextAreaElement) return true;
  return element instanceof HTMLElement && element.isContentEditable;
}

function stateful(element: Element): boolean {
  if (STATE_ATTRIBUTES.some((name) => element.hasAttribute(name))) return true;
  if (ITEM_ROLES.has(element.getAttribute('role') ?? '')) return true;
  if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) return true;
  return editable(element);
}

/** The control a press on `pressed` presses: it, or the nearest ancestor that carries state (an icon inside a trigger). */
export function subjectOf(pressed: Element, expected: Element): Element {
  let current: Element | null = pressed;
  for (let depth = 0; current !== null && depth < SUBJECT_DEPTH; depth++, current = flatParent(current)) {
    if (current === document.body || current === document.documentElement) break;
    if (stateful(current)) return current;
  }
  return expected;
}

function shown(element: Element): boolean {
  if (!element.isConnected) return false;
  if (!element.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true } as CheckVisibilityOptions)) return false;
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.height > 0;
}

function checkedOf(element: Element): string | null {
  const aria = element.getAttribute('aria-checked');
  if (aria !== null) return aria;
  if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) return element.indeterminate ? 'mixed' : String(element.checked);
  return null;
}

function idRefs(element: Element, ...names: string[]): Element[] {
  const found: Element[] = [];
  for (const name of names) {
    for (const id of (element.getAttribute(name) ?? '').split(/\s+/)) {
      const target = id === '' ? null : getElementByIdInScope(element, id);
      if (target !== null) found.push(target);
    }
  }
  return found;
}

function shownControlled(element: Element): Set<Element> {
  return new Set(idRefs(element, 'aria-controls', 'aria-owns').filter(shown));
}

function shownPopups(): Set<Element> {
  const popups = new Set<Element>();
  for (const popup of document.querySelectorAll(POPUP_SELECTOR)) {
    if (popups.size >= MAX_POPUPS) break;
    if (shown(popup)) popups.add(popup);
  }
  return popups;
}

function focusIn(element: Element): boolean {
  const active = deepActiveElement(document);
  return active !== null && flatContains(element, active);
}

/** What a control shows as its value: compared before and after, never reported. */
function valueOf(element: Element): string {
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return element.value;
  return textOf(element);
}

function textOf(element: Element): string {
  return normalizeText(element.textContent ?? '').slice(0, 200);
}

/** How far up from a combobox the field that shows its value is looked for (react-select: input, its box, the values, the control). */
const FIELD_DEPTH = 3;
/** Anything in a field besides its own combobox that a person could operate: the field is no longer the combobox's alone. */
const OTHER_CONTROL =
  'input:not([type=hidden]), select, textarea, button, a[href], [contenteditable]:not([contenteditable="false"]), [tabindex], [role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=slider], [role=textbox], [role=combobox], [role=listbox], [role=option]';

/**
 * The field a combobox shows its chosen value in, when that is not its own value: react-select keeps the input for
 * typing (empty) and draws the value in a `<div>` beside it. The outermost of the control's ancestors (up to
 * FIELD_DEPTH) that holds nothing of the list and no other control; null when even its parent does. Fixed when the
 * press reaches the option, so the list leaving changes nothing of what the field is.
 */
function fieldOf(controller: Element, list: Element): Element | null {
  let field: Element | null = null;
  let current = flatParent(controller);
  for (let depth = 0; current !== null && depth < FIELD_DEPTH; depth++, current = flatParent(current)) {
    if (current === document.body || current === document.documentElement || flatContains(current, list)) break;
    if ([...current.querySelectorAll(OTHER_CONTROL)].some((other) => other !== controller)) break;
    field = current;
  }
  return field;
}

/** The control that owns `container` (a list): it points at the list (aria-controls, aria-owns) or at the item. */
function controllerOf(container: Element, item: Element): Element | null {
  const selectors: string[] = [];
  if (container.id !== '') selectors.push(`[aria-controls~="${CSS.escape(container.id)}"]`, `[aria-owns~="${CSS.escape(container.id)}"]`);
  if (item.id !== '') selectors.push(`[aria-activedescendant="${CSS.escape(item.id)}"]`);
  if (selectors.length === 0) return null;
  const root = container.getRootNode();
  return root instanceof Document || root instanceof ShadowRoot ? root.querySelector(selectors.join(', ')) : null;
}

function itemOf(subject: Element): BeforePress['item'] {
  if (!ITEM_ROLES.has(subject.getAttribute('role') ?? '')) return undefined;
  let container: Element | null = flatParent(subject);
  for (let depth = 0; container !== null && depth < CONTAINER_DEPTH; depth++, container = flatParent(container)) {
    if (CONTAINER_ROLES.has(container.getAttribute('role') ?? '')) break;
  }
  if (container === null || !CONTAINER_ROLES.has(container.getAttribute('role') ?? '')) return undefined;
  const label = textOf(subject);
  const controller = controllerOf(container, subject);
  if (controller === null) return { label, container, controller, value: undefined, field: null };
  const field = fieldOf(controller, container);
  return { label, container, controller, value: valueOf(controller), field: field === null ? null : { element: field, text: textOf(field) } };
}

/** Read the control as the press reaches it (before the page's own handlers of that press run). */
export function beforePress(subject: Element): BeforePress {
  const before: BeforePress = {
    subject,
    expanded: subject.getAttribute('aria-expanded'),
    checked: checkedOf(subject),
    pressed: subject.getAttribute('aria-pressed'),
    selected: subject.getAttribute('aria-selected'),
    focused: focusIn(subject),
    controlled: shownControlled(subject),
    popups: shownPopups(),
  };
  const item = itemOf(subject);
  if (item !== undefined) before.item = item;
  return before;
}

function popupRole(popup: Element): string {
  return popup.getAttribute('role') ?? (popup.localName === 'dialog' ? 'dialog' : popup.localName);
}

function described(popup: Element): NonNullable<PressEffect['popup']> {
  return { role: popupRole(popup), name: cap(explicitName(popup), POPUP_NAME_CAP) };
}

/** A popup shown now that was not before: one the control controls or owns first, then one of the kind it announces. */
function newPopup(before: BeforePress): Element | undefined {
  const controlled = [...shownControlled(before.subject)].find((element) => !before.controlled.has(element));
  if (controlled !== undefined) return controlled;
  const fresh = [...shownPopups()].filter((popup) => !before.popups.has(popup));
  const announced = HASPOPUP_ROLE[before.subject.getAttribute('aria-haspopup') ?? ''];
  return fresh.find((popup) => popupRole(popup) === announced) ?? fresh[0];
}

function belongs(popup: Element, subject: Element): boolean {
  if (subject.hasAttribute('aria-haspopup') || idRefs(subject, 'aria-controls', 'aria-owns').includes(popup)) return true;
  return idRefs(popup, 'aria-labelledby').includes(subject);
}

/**
 * The control owning the pressed option's list shows another value now: its own, or — a combobox that keeps its input
 * for typing — its field, which then shows the option's text (a field whose text changed for anything else, an arrow
 * that turned as the list closed, shows no choice).
 */
function chosenShown(item: NonNullable<BeforePress['item']>): boolean {
  const { controller, field, label } = item;
  if (controller === null || !controller.isConnected) return false;
  if (valueOf(controller) !== item.value) return true;
  if (field === null || !field.element.isConnected || label === '') return false;
  const now = textOf(field.element);
  return now !== field.text && now.includes(label);
}

/** What the press did to the control, judged now; undefined when nothing a person would see changed. */
export function pressEffect(before: BeforePress): PressEffect | undefined {
  const subject = before.subject;
  const item = before.item;
  if (!shown(subject)) {
    // The pressed item left with its list: chosen. An option, when the control owning the list shows another value.
    if (item === undefined || shown(item.container)) return undefined;
    if (MENU_ITEM_ROLES.has(subject.getAttribute('role') ?? '')) return { what: 'chosen' };
    return chosenShown(item) ? { what: 'selected' } : undefined;
  }
  const expanded = subject.getAttribute('aria-expanded');
  if (before.expanded !== 'true' && expanded === 'true') {
    const popup = newPopup(before);
    return popup === undefined ? { what: 'expanded' } : { what: 'opened', popup: described(popup) };
  }
  if (before.expanded === 'true' && expanded === 'false') {
    const gone = [...before.controlled].find((popup) => !shown(popup));
    return gone === undefined ? { what: 'collapsed' } : { what: 'closed', popup: described(gone) };
  }
  const checked = checkedOf(subject);
  if (checked !== before.checked && checked !== null) return { what: checked === 'false' ? 'unchecked' : 'checked' };
  const pressed = subject.getAttribute('aria-pressed');
  if (pressed !== before.pressed && pressed !== null) return { what: pressed === 'false' ? 'unpressed' : 'pressed' };
  if (before.selected !== 'true' && subject.getAttribute('aria-selected') === 'true') return { what: 'selected' };
  // No aria-expanded to tell: a popup that is shown now and is the control's own — it controls or owns it, announces
  // it, or the popup is labelled by it. A popup of no relation (an interstitial shown on press) proves nothing.
  const popup = expanded === null ? newPopup(before) : undefined;
  if (popup !== undefined && belongs(popup, subject)) return { what: 'opened', popup: described(popup) };
  if (!before.focused && editable(subject) && focusIn(subject)) return { what: 'focused' };
  return undefined;
}
