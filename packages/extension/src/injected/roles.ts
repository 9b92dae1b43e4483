/**
 * ARIA roles: the explicit `role` attribute when it names a role we know, else the implicit role of
 * the tag (HTML-AAM, simplified to what an agent needs). 'generic' and 'none' are containers the
 * snapshot drops while hoisting their children.
 */

/** Roles an agent acts on: every element with one of these gets a ref. */
export const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([
  'button',
  'link',
  'textbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'switch',
  'slider',
  'spinbutton',
  'searchbox',
  'treeitem',
]);

/** Roles whose name comes from their content when nothing labels them (ARIA "name from content"). */
export const NAME_FROM_CONTENT_ROLES: ReadonlySet<string> = new Set([
  'button',
  'link',
  'heading',
  'cell',
  'gridcell',
  'columnheader',
  'rowheader',
  'checkbox',
  'radio',
  'switch',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'treeitem',
  'tooltip',
]);

/** Roles that carry no meaning of their own: unnamed, non-actionable ones are dropped from the tree. */
export const TRANSPARENT_ROLES: ReadonlySet<string> = new Set(['generic', 'none', 'presentation', 'rowgroup', 'paragraph']);

/** Every role the explicit attribute may set (ARIA 1.2, minus abstract roles). */
const KNOWN_ROLES: ReadonlySet<string> = new Set([
  ...INTERACTIVE_ROLES,
  'alert',
  'alertdialog',
  'application',
  'article',
  'banner',
  'blockquote',
  'caption',
  'cell',
  'code',
  'columnheader',
  'complementary',
  'contentinfo',
  'definition',
  'dialog',
  'document',
  'feed',
  'figure',
  'form',
  'generic',
  'grid',
  'gridcell',
  'group',
  'heading',
  'img',
  'list',
  'listitem',
  'log',
  'main',
  'marquee',
  'math',
  'menu',
  'menubar',
  'meter',
  'navigation',
  'none',
  'note',
  'paragraph',
  'presentation',
  'progressbar',
  'radiogroup',
  'region',
  'row',
  'rowgroup',
  'rowheader',
  'scrollbar',
  'search',
  'separator',
  'status',
  'table',
  'tablist',
  'tabpanel',
  'term',
  'timer',
  'toolbar',
  'tooltip',
  'tree',
  'treegrid',
]);

const INPUT_ROLES: Readonly<Record<string, string>> = {
  button: 'button',
  submit: 'button',
  reset: 'button',
  image: 'button',
  file: 'button',
  color: 'button',
  checkbox: 'checkbox',
  radio: 'radio',
  range: 'slider',
  number: 'spinbutton',
  search: 'searchbox',
  hidden: 'none',
};

/** Input types that become a combobox when they have a `list` (datalist) attribute. */
const LIST_CAPABLE = new Set(['text', 'search', 'email', 'tel', 'url', '']);

const SIMPLE_TAG_ROLES: Readonly<Record<string, string>> = {
  button: 'button',
  textarea: 'textbox',
  option: 'option',
  optgroup: 'group',
  ul: 'list',
  ol: 'list',
  menu: 'list',
  li: 'listitem',
  table: 'table',
  thead: 'rowgroup',
  tbody: 'rowgroup',
  tfoot: 'rowgroup',
  tr: 'row',
  nav: 'navigation',
  main: 'main',
  aside: 'complementary',
  article: 'article',
  dialog: 'dialog',
  fieldset: 'group',
  details: 'group',
  // A summary toggles its details; agents click it like a button.
  summary: 'button',
  hr: 'separator',
  progress: 'progressbar',
  meter: 'meter',
  output: 'status',
  search: 'search',
  p: 'paragraph',
};

/** Whether an explicit accessible-name attribute is present (form/section only become landmarks then). */
function hasLabelAttribute(element: Element): boolean {
  return (element.getAttribute('aria-label') ?? '').trim() !== '' || (element.getAttribute('aria-labelledby') ?? '').trim() !== '';
}

function explicitRole(element: Element): string | null {
  const attribute = element.getAttribute('role');
  if (attribute === null) return null;
  // The first token we recognise wins (ARIA fallback roles: role="switch checkbox").
  for (const token of attribute.toLowerCase().split(/\s+/)) {
    if (KNOWN_ROLES.has(token)) return token === 'presentation' ? 'none' : token;
  }
  return null;
}

function inputRole(input: HTMLInputElement): string {
  const type = (input.getAttribute('type') ?? '').toLowerCase();
  if (input.hasAttribute('list') && LIST_CAPABLE.has(type)) return 'combobox';
  return INPUT_ROLES[type] ?? 'textbox';
}

function cellRole(cell: Element, hints: RoleHints): string {
  if (cell.localName === 'th') return (cell.getAttribute('scope') ?? '').toLowerCase() === 'row' ? 'rowheader' : 'columnheader';
  return hints.inGrid ? 'gridcell' : 'cell';
}

function implicitRole(element: Element, hints: RoleHints): string {
  const tag = element.localName;
  const simple = SIMPLE_TAG_ROLES[tag];
  if (simple !== undefined) return simple;
  switch (tag) {
    case 'a':
    case 'area':
      return element.hasAttribute('href') ? 'link' : 'generic';
    case 'input':
      return element instanceof HTMLInputElement ? inputRole(element) : 'textbox';
    case 'select':
      return element instanceof HTMLSelectElement && (element.multiple || element.size > 1) ? 'listbox' : 'combobox';
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return 'heading';
    case 'td':
    case 'th':
      return cellRole(element, hints);
    case 'img':
      // alt="" marks a decorative image.
      return element.getAttribute('alt') === '' ? 'none' : 'img';
    case 'svg':
      return hasLabelAttribute(element) || element.querySelector(':scope > title') !== null ? 'img' : 'none';
    case 'header':
    case 'footer':
      // Page-level only; inside sectioning content they are plain containers.
      if (element.closest('article, aside, main, nav, section') !== null) return 'generic';
      return tag === 'header' ? 'banner' : 'contentinfo';
    case 'section':
      return hasLabelAttribute(element) ? 'region' : 'generic';
    case 'form':
      return hasLabelAttribute(element) ? 'form' : 'generic';
    default:
      break;
  }
  // The editing host of a contenteditable region is a textbox; its descendants are its content.
  // Checking the attribute first keeps isContentEditable (a style lookup) off the hot path.
  if (element instanceof HTMLElement && element.hasAttribute('contenteditable') && element.isContentEditable) {
    const parent = element.parentElement;
    if (parent === null || !parent.isContentEditable) return 'textbox';
  }
  return 'generic';
}

/** What the walker already knows about the ancestors, so roles need no upward DOM searches. */
export interface RoleHints {
  /** Inside a table whose role is grid or treegrid (its cells are gridcells). */
  inGrid: boolean;
}

/** `bare`: the element has no attributes at all (the caller checked once), so no role attribute. */
export function computeRole(element: Element, hints: RoleHints, bare = false): string {
  return (bare ? null : explicitRole(element)) ?? implicitRole(element, hints);
}
