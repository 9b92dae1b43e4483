/**
 * Accessible names (a pragmatic subset of accname 1.2). The walker supplies the content text it
 * gathered bottom-up, so "name from content" costs nothing extra; this module handles everything
 * that labels an element from outside its content. Names are normalized and capped by the caller.
 */
import { getElementByIdInScope, normalizeText } from './dom.js';

const SKIPPED_IN_LABEL_TEXT = new Set(['script', 'style', 'template', 'select', 'textarea', 'input', 'button']);

/**
 * Plain rendered-ish text of a subtree, skipping `skip` (the labelled control) and controls inside it (a
 * referenced element that is itself a control, like a button naming itself through aria-labelledby, still counts).
 */
function plainText(node: Node, skip: Element | null, root = true): string {
  if (node instanceof Text) return node.data;
  if (!(node instanceof Element)) return '';
  if (node === skip || (!root && SKIPPED_IN_LABEL_TEXT.has(node.localName))) return '';
  const label = node.getAttribute('aria-label');
  if (label !== null && label.trim() !== '') return ` ${label} `;
  let text = '';
  for (const child of node.childNodes) text += plainText(child, skip, false);
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
      return '';
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
        // Never echo a password into a snapshot that ends up in an agent's transcript.
        if (element.type === 'password') return element.value === '' ? '' : '••••••';
        return element.value;
      }
      return undefined;
    default:
      break;
  }
  if (role === 'textbox' && element instanceof HTMLElement && element.isContentEditable) return element.textContent ?? '';
  if (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'meter') {
    return element.getAttribute('aria-valuetext') ?? element.getAttribute('aria-valuenow') ?? undefined;
  }
  return undefined;
}
