/**
 * Accessible names (a pragmatic subset of accname 1.2). The walker supplies the content text it
 * gathered bottom-up, so "name from content" costs nothing extra; this module handles everything
 * that labels an element from outside its content. Names are normalized and capped by the caller.
 */
import { isSecretField, SECRET_MASK } from './secrets.js';
import { getElementByIdInScope, normalizeText } from './dom.js';
import { textLines } from './text.js';

const SKIPPED_IN_LABEL_TEXT = new Set(['script', 'style', 'template', 'select', 'textarea', 'input', 'button']);

/**
 * The children a node renders, in the flat tree: a slot's assigned nodes (its own children are only the fallback), a
 * shadow host's shadow tree (its light children render only through the slots there).
 */
function renderedChildren(node: Element): NodeListOf<ChildNode> | Node[] {
  if (node.localName === 'slot' && node instanceof HTMLSlotElement) {
    const assigned = node.assignedNodes();
    if (assigned.length > 0) return assigned;
  }
  return (node.shadowRoot ?? node).childNodes;
}

/**
 * Plain rendered-ish text of a subtree, skipping `skip` (the labelled control) and controls inside it (a
 * referenced element that is itself a control, like a button naming itself through aria-labelledby, still counts).
 * Read through the flat tree: text slotted into a shadow-DOM label (`<x-cb>Gift wrap</x-cb>` whose shadow root is
 * `<label><input><slot>`) is the label's text, as Chrome reads it.
 */
function plainText(node: Node, skip: Element | null, root = true): string {
  if (node instanceof Text) return node.data;
  if (!(node instanceof Element)) return '';
  if (node === skip || (!root && SKIPPED_IN_LABEL_TEXT.has(node.localName))) return '';
  const label = node.getAttribute('aria-label');
  if (label !== null && label.trim() !== '') return ` ${label} `;
  let text = '';
  for (const child of renderedChildren(node)) text += plainText(child, skip, false);
  return ` ${text} `;
}

/** The text an element contributes when another element points at it (aria-labelledby). */
function referencedText(element: Element): string {
  const label = element.getAttribute('aria-label');
  if (label !== null && label.trim() !== '') return label;
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) return element.value;
  // Referenced content counts even when hidden (accname 2B), so plain text, not the rendered walk.
  return plainText(element, null);
}

function labelledByName(element: Element): string {
  const ids = (element.getAttribute('aria-labelledby') ?? '').trim();
  if (ids === '') return '';
  const parts: string[] = [];
  for (const id of ids.split(/\s+/)) {
    const target = getElementByIdInScope(element, id);
    if (target !== null) parts.push(referencedText(target));
  }
  return normalizeText(parts.join(' '));
}

/**
 * The <label>s of a control. `control.labels` rescans the whole tree scope on every call (quadratic
 * over a table of 1,500 checkboxes), so the walker passes an index built once per walk.
 */
export type LabelLookup = (control: Element) => readonly HTMLLabelElement[];

const nativeLabels: LabelLookup = (control) => {
  const labels = 'labels' in control ? (control as HTMLInputElement).labels : null;
  return labels === null ? [] : [...labels];
};

/** Build a LabelLookup that indexes each tree scope's labels on first use. */
export function createLabelIndex(): LabelLookup {
  const byScope = new Map<Node, Map<Element, HTMLLabelElement[]>>();
  return (control) => {
    const scope = control.getRootNode();
    let index = byScope.get(scope);
    if (index === undefined) {
      index = new Map();
      if (scope instanceof Document || scope instanceof ShadowRoot) {
        for (const label of scope.querySelectorAll('label')) {
          const target = label.control;
          if (target === null) continue;
          const list = index.get(target);
          if (list === undefined) index.set(target, [label]);
          else list.push(label);
        }
      }
      byScope.set(scope, index);
    }
    return index.get(control) ?? [];
  };
}

function labelsName(control: Element, labelsOf: LabelLookup): string {
  const labels = labelsOf(control);
  if (labels.length === 0) return '';
  const parts: string[] = [];
  for (const label of labels) parts.push(plainText(label, control));
  return normalizeText(parts.join(' '));
}

function firstChildText(element: Element, tag: string): string {
  for (const child of element.children) {
    if (child.localName === tag) return normalizeText(plainText(child, null));
  }
  return '';
}

/** What the element's own tag says its name is (labels, alt, legend, caption, button values). */
function nativeName(element: Element, labelsOf: LabelLookup): string {
  // Dispatch on the tag first: this runs for every visible element, and most have no native name.
  switch (element.localName) {
    case 'input': {
      if (!(element instanceof HTMLInputElement)) return '';
      const type = element.type;
      if (type === 'button' || type === 'submit' || type === 'reset') {
        const value = element.getAttribute('value');
        if (value !== null) return normalizeText(value);
        return type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '';
      }
      if (type === 'image') return normalizeText(element.alt || element.getAttribute('value') || 'Submit');
      // Its button's own caption, as Chrome names an unlabelled file input (English UI).
      if (type === 'file') return labelsName(element, labelsOf) || (element.multiple ? 'Choose Files' : 'Choose File');
      return labelsName(element, labelsOf);
    }
    // Every labelable element is named by its <label>s before its content: a <button role="switch"> with a
    // `<label for>` (Radix/shadcn Switch and Checkbox) is named by the label, not by its own text.
    case 'button':
    case 'select':
    case 'textarea':
    case 'meter':
    case 'progress':
    case 'output':
      return labelsName(element, labelsOf);
    case 'img':
    case 'area':
      return normalizeText(element.getAttribute('alt') ?? '');
    case 'fieldset':
      return firstChildText(element, 'legend');
    case 'table':
      return firstChildText(element, 'caption');
    case 'figure':
      return firstChildText(element, 'figcaption');
    case 'svg':
      return firstChildText(element, 'title');
    case 'iframe':
    case 'frame':
      return normalizeText(element.getAttribute('title') ?? '');
    default:
      // A form-associated custom element is labelable too (a label's `control` can be it).
      return element.localName.includes('-') ? labelsName(element, labelsOf) : '';
  }
}

/**
 * The name from labelling: aria-labelledby, aria-label, then the tag's native label. '' when the
 * element is only named by its content (or not at all). Ancestors with such a name identify the
 * elements inside them (see identity.ts).
 */
export function explicitName(element: Element, labelsOf: LabelLookup = nativeLabels, bare = false): string {
  // Without attributes there is no aria-label(ledby); only the tag (labels, legend…) can name it.
  if (bare) return nativeName(element, labelsOf);
  const labelledBy = labelledByName(element);
  if (labelledBy !== '') return labelledBy;
  const ariaLabel = normalizeText(element.getAttribute('aria-label') ?? '');
  if (ariaLabel !== '') return ariaLabel;
  return nativeName(element, labelsOf);
}

/** Last-resort names after content: title, then a text field's placeholder. */
export function fallbackName(element: Element): string {
  const title = normalizeText(element.getAttribute('title') ?? '');
  if (title !== '') return title;
  const tag = element.localName;
  if ((tag === 'input' || tag === 'textarea') && (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) {
    return normalizeText(element.placeholder);
  }
  return normalizeText(element.getAttribute('aria-placeholder') ?? '');
}

/**
 * The value a control shows, which is what it contributes to an enclosing name-from-content
 * (accname: embedded controls) and what the snapshot reports as `value`.
 */
export function controlValue(element: Element, role: string): string | undefined {
  switch (element.localName) {
    case 'select': {
      if (!(element instanceof HTMLSelectElement)) return undefined;
      const selected = element.selectedOptions[0];
      return selected === undefined ? '' : normalizeText(selected.label || selected.text);
    }
    case 'textarea':
      return element instanceof HTMLTextAreaElement ? element.value : undefined;
    case 'input':
      if (!(element instanceof HTMLInputElement)) return undefined;
      // The chosen files are what an agent needs to see after `upload` (Chrome shows only a count).
      if (element.type === 'file') return element.files === null || element.files.length === 0 ? 'No file chosen' : [...element.files].map((file) => file.name).join(', ');
      if (role === 'textbox' || role === 'searchbox' || role === 'spinbutton' || role === 'slider' || role === 'combobox') {
        // Never echo a password or a one-time code into a snapshot that ends up in an agent's transcript.
        if (isSecretField(element)) return element.value === '' ? '' : SECRET_MASK;
        return element.value;
      }
      return undefined;
    default:
      break;
  }
  // A rich-text field's lines as a person sees them (a CodeMirror line per line, not `alpha();beta();`).
  if (role === 'textbox' && element instanceof HTMLElement && element.isContentEditable) return textLines(element, false).text;
  if (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'meter') {
    return element.getAttribute('aria-valuetext') ?? element.getAttribute('aria-valuenow') ?? undefined;
  }
  return undefined;
}

/** Where a name that Chrome would leave empty came from: an icon's image or class, a tooltip, a nearby label. */
export type InferredFrom = 'icon' | 'tooltip' | 'label';

/** Attributes tooltip libraries keep a control's tooltip text in (Bootstrap, tippy, hint.css, MUI…). */
const TOOLTIP_ATTRIBUTES = ['data-tooltip', 'data-tip', 'data-title', 'data-original-title', 'data-bs-original-title', 'data-bs-title', 'data-hint', 'data-balloon', 'aria-description'];

/** Class prefixes of icon fonts and sprite sets: `fa-star`, `icon-send`, `bi-trash`, `glyphicon-remove`, `mdi-delete`. */
const ICON_CLASS = /^(?:fa[a-z]?|fas|far|fab|icon|icons|ico|bi|glyphicon|glyph|mdi|material-icons|ion|ionicons|octicon|ti|la|lni|ri|bx|feather|gg|codicon|oi|si|svg-icon|i)[-_](.+)$/i;
/** Class tokens that are an icon set's own markers or sizes, never the icon's meaning. */
const ICON_NOISE = new Set(['fw', 'lg', 'sm', 'xs', 'xl', '2x', '3x', '4x', '5x', 'solid', 'regular', 'light', 'thin', 'brands', 'duotone', 'outline', 'outlined', 'filled', 'round', 'rounded', 'sharp', 'spin', 'pulse', 'inverse', 'fixed', 'small', 'large', 'white', 'black', 'inline', 'button', 'btn', 'icon', 'ico']);
/** Words of an image file name that say how the icon looks or which state it shows, not what it does. */
const FILE_NOISE = /^(?:ic|icon|icons|ico|img|image|btn|button|sprite|hover|active|clicked|selected|focus|focused|pressed|disabled|on|off|filled|fill|outline|outlined|solid|white|black|dark|light|grey|gray|sm|md|lg|xl|small|large|normal|default|\d+(?:x|px|dp|w|h)?|x\d+|\d+x\d+)$/i;
/** Descendants looked at for an icon: a control's icon is among its first few elements. */
const MAX_ICON_ELEMENTS = 8;

/** The words of an image URL's file name (`/img/ic_trash_24dp.svg` → "trash"), '' for a data: URL or none. */
export function fileWords(url: string): string {
  if (url === '' || /^data:/i.test(url)) {
    // An inline SVG may still carry its own name in an id or title (a sprite's symbol).
    const fragment = /#([\w-]+)\s*$/.exec(url)?.[1] ?? '';
    return fragment === '' ? '' : fileWords(fragment);
  }
  const fragment = /#([\w-]+)$/.exec(url)?.[1];
  const path = (fragment ?? url.split(/[?#]/)[0] ?? '').split('/').pop() ?? '';
  let stem: string;
  try {
    stem = decodeURIComponent(path);
  } catch {
    stem = path;
  }
  stem = stem.replace(/\.[a-z0-9]{2,5}$/i, '').replace(/@\d+x$/i, '');
  const words = stem
    .split(/[-_.\s+]+|(?<=[a-z])(?=[A-Z])/)
    .filter((word) => word !== '' && !FILE_NOISE.test(word))
    .map((word) => word.toLowerCase());
  return words.join(' ');
}

/** The first url(...) of a computed `content` or `background-image` value. */
export function cssUrl(value: string): string {
  const match = /url\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^)\s]*))\s*\)/.exec(value);
  return match === null ? '' : (match[1] ?? match[2] ?? match[3] ?? '');
}

/** The meaning of an icon-font class list (`fa fa-star fa-lg` → "star"), '' when none says it. */
export function iconClassWords(className: string): string {
  for (const token of className.split(/\s+/)) {
    const match = ICON_CLASS.exec(token);
    const rest = match?.[1];
    if (rest === undefined) continue;
    const words = rest.split(/[-_]+/).filter((word) => word !== '' && !ICON_NOISE.has(word.toLowerCase()) && !/^\d+$/.test(word));
    if (words.length > 0) return words.join(' ').toLowerCase();
  }
  return '';
}

/** The image an element itself draws through CSS (`content: url()` or a background image), as words. */
export function cssImageWords(element: Element, style: Pick<CSSStyleDeclaration, 'content' | 'backgroundImage'> = getComputedStyle(element)): string {
  const content = style.content;
  if (content.startsWith('url(')) return fileWords(cssUrl(content));
  const background = style.backgroundImage;
  if (background.startsWith('url(')) return fileWords(cssUrl(background));
  return '';
}

/** What one element says it depicts: an <img>'s file, an SVG <use>'s symbol, its CSS image, an icon-font class. */
function iconOf(element: Element): string {
  const tag = element.localName;
  if (tag === 'img') {
    const words = fileWords(element.getAttribute('src') ?? '');
    if (words !== '') return words;
  } else if (tag === 'use') {
    const words = fileWords(element.getAttribute('href') ?? element.getAttribute('xlink:href') ?? '');
    if (words !== '') return words;
  } else if (tag === 'svg' || tag === 'symbol') {
    const id = element.getAttribute('data-icon') ?? '';
    if (id !== '') return fileWords(id);
  }
  const className = element.getAttribute('class') ?? '';
  const fromClass = className === '' ? '' : iconClassWords(className);
  if (fromClass !== '') return fromClass;
  return element instanceof HTMLElement || element instanceof SVGElement ? cssImageWords(element) : '';
}

/** The tooltip text a control keeps in one of the attributes tooltip libraries use. */
function tooltipOf(element: Element): string {
  for (const attribute of TOOLTIP_ATTRIBUTES) {
    const text = normalizeText(element.getAttribute(attribute) ?? '');
    if (text !== '') return text;
  }
  return '';
}

/** Field roles named by the text just before them when nothing labels them (`Departure Date` then its input). */
const LABELLED_BY_NEIGHBOUR = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'listbox', 'slider']);
const MAX_NEIGHBOUR_LABEL = 60;

/**
 * What is, or holds, something a person operates or types into: another field's text is its content, not a label
 * (an editor above a rich-text field, a code block's editor, a toolbar).
 */
const NOT_A_LABEL = 'input, select, textarea, button, [contenteditable]:not([contenteditable="false"]), [role=textbox], [role=combobox], [role=listbox], [role=searchbox], [role=spinbutton], [role=slider], [role=button], [role=checkbox], [role=radio], [role=switch], [role=menuitem], [role=tab], [role=option], [role=grid], [role=tree]';

/**
 * Whether an element is, or holds, something a person operates (NOT_A_LABEL): in its light tree, or in a shadow root
 * inside it — a custom checkbox's text slotted beside its shadow input is that control's caption, not a label for
 * whatever follows it.
 */
function holdsControl(element: Element): boolean {
  if (element.matches(NOT_A_LABEL)) return true;
  const scopes: ParentNode[] = element.shadowRoot === null ? [element] : [element, element.shadowRoot];
  for (let scope = scopes.pop(); scope !== undefined; scope = scopes.pop()) {
    if (scope.querySelector(NOT_A_LABEL) !== null) return true;
    for (const inner of scope.querySelectorAll('*')) if (inner.shadowRoot !== null) scopes.push(inner.shadowRoot);
  }
  return false;
}

/**
 * The short text right before a field, in its parent: what a person reads as its label. Only text that can be one:
 * a single short line in an element that holds no control or editor of its own (a code block or a paragraph above
 * a field is content, not its label).
 */
function neighbourLabel(element: Element): string {
  for (let node = element.previousSibling; node !== null; node = node.previousSibling) {
    let raw: string;
    if (node.nodeType === Node.ELEMENT_NODE) {
      const sibling = node as Element;
      // Decoration hidden from assistive technology (an icon, CodeMirror's line-number gutter) labels nothing.
      if (sibling.getAttribute('aria-hidden') === 'true') continue;
      // Another control in between: the text before it is that control's label, not this one's.
      if (SKIPPED_IN_LABEL_TEXT.has(sibling.localName) || holdsControl(sibling)) return '';
      // Its lines as the snapshot reads them (text.ts): several (a <pre>, a paragraph with breaks, a list) are
      // content a person reads, not a label.
      raw = textLines(sibling, false).text;
      if (raw.trim().includes('\n')) return '';
    } else {
      raw = node.textContent ?? '';
    }
    const text = normalizeText(raw);
    if (text === '') continue;
    return text.length <= MAX_NEIGHBOUR_LABEL ? text : '';
  }
  return '';
}

/** The element after `node` in document order, staying inside `root`; null past its last descendant. */
function nextElementWithin(node: Element, root: Element): Element | null {
  if (node.firstElementChild !== null) return node.firstElementChild;
  for (let current: Element | null = node; current !== null && current !== root; current = current.parentElement) {
    if (current.nextElementSibling !== null) return current.nextElementSibling;
  }
  return null;
}

/**
 * A name for a control whose accessible name is empty (Chrome would show it nameless), from what a person would go
 * by: a tooltip, the icon it shows (its image's file name, an SVG symbol, an icon-font class), or for a field the
 * text right before it. Undefined when nothing says it.
 */
export function inferredName(element: Element, role: string): { name: string; from: InferredFrom } | undefined {
  const tooltip = tooltipOf(element);
  if (tooltip !== '') return { name: tooltip, from: 'tooltip' };
  const own = iconOf(element);
  if (own !== '') return { name: own, from: 'icon' };
  // The first few elements in document order, without listing the whole subtree (a big unnamed container).
  let icon: Element | null = element.firstElementChild;
  for (let i = 0; icon !== null && i < MAX_ICON_ELEMENTS; i++, icon = nextElementWithin(icon, element)) {
    const title = icon.localName === 'title' ? normalizeText(icon.textContent ?? '') : '';
    const words = title !== '' ? title : iconOf(icon) || tooltipOf(icon);
    if (words !== '') return { name: words, from: 'icon' };
  }
  if (LABELLED_BY_NEIGHBOUR.has(role)) {
    const label = neighbourLabel(element);
    if (label !== '') return { name: label, from: 'label' };
  }
  return undefined;
}
