/**
 * One pass over the rendered DOM (flat tree: open shadow roots entered, slots resolved) that
 * builds the compact tree and the list of actionable elements with their identity parts.
 *
 * Both the snapshot and heal run this same walk, so "the twin domain" (which elements count when
 * numbering twins) is identical by construction. Names from content are computed bottom-up from
 * the text each child contributes, so no subtree is read twice.
 *
 * Hidden content: display:none and aria-hidden="true" subtrees are skipped; a visibility:hidden
 * element is skipped itself but its children are still visited, because a child may set
 * visibility:visible and render. Content a person cannot see for other reasons (transparent, clipped
 * away, off-screen, painting nothing) is left out too, refs included: see visibility.ts. Its text still
 * counts in the name of a visible control, as in the accessibility tree.
 */
import { cap, deepActiveElement, flatParent, NAME_CAP, normalizeText } from './dom.js';
import { pseudoText } from './generatedContent.js';
import { NO_HINTS, type ListenerHints } from './listenerHints.js';
import { contextSignature, isIdentifyingAncestor, type ContextSource } from './identity.js';
import { controlValue, createLabelIndex, cssImageWords, explicitName, fallbackName, inferredName, type LabelLookup } from './names.js';
import { computeRole, INTERACTIVE_ROLES, NAME_FROM_CONTENT_ROLES, TRANSPARENT_ROLES } from './roles.js';
import { drawnPartOf } from './pointerPart.js';
import { textLines, joinPieces, keptText, mayKeepSpaces, spacesOf, type TextLines, type Piece, type Spaces } from './text.js';
import type { PageNode } from './types.js';
import { bigEnough, drawsAnything, FULL_SIGHT, labelShows, legibleFont, MIN_OPACITY, offScreen, paintsItself, readReach, sightOf, withinReach, type Reach, type Sight } from './visibility.js';

const SKIPPED_TAGS = new Set(['script', 'style', 'template', 'head', 'noscript', 'meta', 'link', 'title', 'base']);

/** SVG elements that define things drawn elsewhere (or describe), never drawn where they stand. */
const SVG_UNRENDERED = new Set(['defs', 'symbol', 'clippath', 'clipPath', 'mask', 'pattern', 'marker', 'lineargradient', 'linearGradient', 'radialgradient', 'radialGradient', 'filter', 'desc', 'metadata', 'font-face']);

/**
 * Cursors that tell a person the element does something when pressed: click (pointer), a menu on right-click
 * (context-menu), a drag (grab, move, resize), zoom. The outermost element showing one gets a ref.
 */
const INTERACTIVE_CURSORS = new Set(['pointer', 'context-menu', 'grab', 'grabbing', 'move', 'all-scroll', 'zoom-in', 'zoom-out', 'copy', 'alias', 'col-resize', 'row-resize', 'ew-resize', 'ns-resize', 'nesw-resize', 'nwse-resize', 'e-resize', 'w-resize', 'n-resize', 's-resize']);

/** Roles whose cells show their state as an image (a board's X and O): the image is said as `[img: …]`. */
const IMAGE_STATE_ROLES = new Set(['cell', 'gridcell']);

/** Containers of items (a list, a table body): one listening for presses is taken to act on the item pressed. */
const ITEM_CONTAINER_ROLES = new Set(['list', 'listbox', 'tree', 'grid', 'treegrid', 'table', 'rowgroup', 'menu', 'tablist', 'radiogroup']);
/** The items of such containers. */
const ITEM_ROLES = new Set(['listitem', 'row', 'option', 'treeitem']);

/** Container roles whose content-derived name repeats their children; the children are kept instead. */
const STRUCTURAL_CONTENT_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);

/** Roles with a checked state, reported even when false (an unchecked box is information). */
const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/** Input types `readonly` does not apply to (nothing is typed into them). */
const NO_READONLY_TYPES = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden', 'color', 'range']);

/** Elements that can be :disabled (natively or through a disabled fieldset). */
const FORM_CONTROL_TAGS = new Set(['button', 'input', 'select', 'textarea', 'option', 'optgroup', 'fieldset']);

/** Default cut of text runs and values (`--max-text` raises it); names of refs are always cut at NAME_CAP (they are part of the ref's identity). */
export const TEXT_CAP = 100;
/** Descendants of an unnamed control whose generated content may name it (icons are its first few elements). */
const MAX_ICON_ELEMENTS = 8;
const URL_CAP = 300;

/**
 * What a walked subtree reports up: it showed something a person can see / it holds text a person cannot see /
 * it holds a control that is hidden now (a row's buttons that only show on hover).
 */
const PAINTED = 1;
const HIDDEN_TEXT = 2;
const HIDDEN_CONTROL = 4;

/**
 * Containers a person points at to reveal controls inside them (`li:hover .destroy { display: block }`): one that
 * holds a control hidden now gets a ref of its own, so `hover` can target it.
 */
const HOVER_ROLES = new Set(['row', 'listitem', 'article', 'treeitem']);

/** Inline handler attributes of a pointer action a person performs on the element (not hover or focus). */
const ACTION_HANDLERS = new Set(['onclick', 'ondblclick', 'onmousedown', 'onmouseup', 'onpointerdown', 'onpointerup', 'oncontextmenu', 'ondragstart', 'ondragover', 'ondrop']);

/** A control's tag or role, for a hidden one the walker skips (its role is not computed). */
const CONTROL_SELECTOR = 'button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=link], [role=checkbox], [role=menuitem], [onclick]';

/** Labelable form controls: hidden behind a visible <label>, they are still operated through it. */
const LABELABLE_TAGS = new Set(['input', 'select', 'textarea', 'meter', 'progress', 'output', 'button']);
/** Names without <label>s: what a control adds to an enclosing name from content. */
const NO_LABELS: LabelLookup = () => [];

/** A block boundary between items: text on either side must not be merged into one run. */
const BREAK = null;
/** Text whose whitespace is as the page renders it, not collapsed (pre-formatted text, a <br>): see text.ts. */
interface KeptText {
  role: 'text';
  name: string;
  kept: true;
}
type Item = PageNode | KeptText | typeof BREAK;
/** One space between inline items (shared: never mutated, merged away into its run). */
const SPACE: PageNode = { role: 'text', name: ' ' };
/** A <br>: the line ends here (shared like SPACE). */
const LINE_BREAK: KeptText = { role: 'text', name: '\n', kept: true };

/** Roles whose value moves within a range: the range is shown (`[range=0..100]`). */
const RANGE_ROLES = new Set(['slider', 'spinbutton']);

interface ContextHolder extends ContextSource {
  signature?: string;
}

export interface Actionable {
  element: Element;
  role: string;
  name: string;
  /** The nearest identifying ancestor, filled in once that ancestor's walk completes. */
  holder: ContextHolder | null;
  node: PageNode;
}

/** An <iframe>/<frame> shown in the tree: the worker puts the child frame's own tree under `node`. */
export interface FramePlaceholder {
  element: Element;
  node: PageNode;
}

export interface WalkResult {
  tree: PageNode[];
  /** In document (pre-)order. */
  actionables: Actionable[];
  /** Visible frame elements, in document order. */
  frames: FramePlaceholder[];
  /** The walk entered an open shadow root. */
  shadowRoots: boolean;
  /** A modal dialog is open (its name, possibly ''): the rest of the page was left out. */
  modal?: string;
}

interface Inherited {
  /** The flat-tree parent's computed cursor is pointer (so ours is probably just inherited). */
  pointer: boolean;
  holder: ContextHolder | null;
  /** The parent's computed visibility is visible (text nodes have no style of their own). */
  visible: boolean;
  /** Inside a grid/treegrid (cells are gridcells). */
  inGrid: boolean;
  /** What the ancestors let a person see here. */
  sight: Sight;
  /** The parent listens for presses on its items (a sortable list, a delegated menu): its items are the targets. */
  delegates: boolean;
  /** Inside an element with a ref: its SVG internals are part of it, not targets of their own. */
  inControl: boolean;
  /** Inside the open modal dialog, or no modal is open (outside one, nothing is shown: Chrome hides it too). */
  inModal: boolean;
}

/** One element's children being walked: where their items and text go, and what they report up. */
interface Children {
  inherited: Inherited;
  out: Item[];
  text: string[];
  /** The element's computed style (its font is its text nodes' font). */
  style: CSSStyleDeclaration;
  /** Whether that font can be read; undefined until a text node needs it. */
  legible?: boolean;
  /** How the element's text treats whitespace (pre-formatted or not); undefined until a text node needs it. */
  spaces?: Spaces;
  askPaint: boolean;
  /** PAINTED / HIDDEN_TEXT of the children walked so far. */
  flags: number;
}

const ROOT: Inherited = { pointer: false, holder: null, visible: true, inGrid: false, sight: FULL_SIGHT, delegates: false, inControl: false, inModal: true };

export function contextOf(actionable: Actionable): string {
  const holder = actionable.holder;
  if (holder === null) return '';
  holder.signature ??= contextSignature(holder);
  return holder.signature;
}

function isInlineDisplay(display: string): boolean {
  return display === 'inline' || display === 'contents';
}

export class Walker {
  readonly #actionables: Actionable[] = [];
  readonly #frames: FramePlaceholder[] = [];
  #shadowRoots = false;
  readonly #labelsOf: LabelLookup = createLabelIndex();
  readonly #hints: ListenerHints;
  readonly #pinned: ListenerHints;
  /** The element with keyboard focus (read once: nothing moves focus during a walk). */
  readonly #focused: Element | null = deepActiveElement(document);
  #reached: Reach | undefined;
  /** The open modal dialog (aria-modal or showModal), if any, and its flat-tree ancestors. */
  #modal: Element | null = null;
  #modalPath = new Set<Element>();
  /** Where text runs and values are cut (`--max-text`). */
  readonly #maxText: number;
  /** The document's scrollable area, read on first need (once per walk: nothing scrolls meanwhile). */
  readonly #reach = (): Reach => (this.#reached ??= readReach());

  /**
   * `hints`: elements with listeners a person triggers (dblclick, drop…), as the worker read them for this document.
   * Every walk of a document (snapshot and heal) must get the same hints: they are part of which elements count.
   * `pinned`: elements handed to an agent with a ref outside a snapshot (a click's interceptor), actionable while
   * visible so the snapshot shows that ref; the same for every walk, like the hints.
   */
  constructor(hints: ListenerHints = NO_HINTS, pinned: ListenerHints = NO_HINTS, maxText = TEXT_CAP) {
    this.#hints = hints;
    this.#pinned = pinned;
    this.#maxText = maxText;
  }

  /** Walk the whole document. */
  walkDocument(): WalkResult {
    const out: Item[] = [];
    const root = document.body ?? document.documentElement;
    const modal = openModal();
    let start = root === null ? ROOT : this.#rootFor(root);
    if (modal !== null && root !== null && modal !== root) {
      this.#modal = modal;
      for (let node = flatParent(modal); node !== null; node = flatParent(node)) this.#modalPath.add(node);
      start = { ...start, inModal: false };
    }
    if (root !== null) this.#walkElement(root, start, out, [], false, false);
    const result: WalkResult = { tree: mergeItems(out, this.#maxText), actionables: this.#actionables, frames: this.#frames, shadowRoots: this.#shadowRoots };
    if (this.#modal !== null) result.modal = cap(explicitName(this.#modal, this.#labelsOf) || normalizeText((this.#modal as HTMLElement).innerText ?? ''), 60);
    return result;
  }

  /** Walk one element's subtree (a snapshot scope); the element itself is included. */
  walkSubtree(element: Element): WalkResult {
    const out: Item[] = [];
    this.#walkElement(element, this.#rootFor(element), out, [], false, false);
    return { tree: mergeItems(out, this.#maxText), actionables: this.#actionables, frames: this.#frames, shadowRoots: this.#shadowRoots };
  }

  /** Where a walk starting at `element` begins: what its ancestors (e.g. an <html> at opacity 0) let through. */
  #rootFor(element: Element): Inherited {
    const sight = this.#sightAbove(element);
    return sight === FULL_SIGHT ? ROOT : { ...ROOT, sight };
  }

  /** The sight `element`'s flat-tree ancestors pass down to it. */
  #sightAbove(element: Element): Sight {
    const chain: Element[] = [];
    for (let node = flatParent(element); node !== null; node = flatParent(node)) chain.push(node);
    let sight = FULL_SIGHT;
    for (let i = chain.length - 1; i >= 0; i--) {
      const ancestor = chain[i];
      if (ancestor === undefined) continue;
      const style = getComputedStyle(ancestor);
      sight = sightOf(ancestor, style, style.display, sight, this.#reach, isViewportOwner(ancestor)).inside;
    }
    return sight;
  }

  /** The only actionable found inside `label` (its entry is at `at`) is the control it labels. */
  #wrapsOnlyItsControl(label: HTMLLabelElement, at: number): boolean {
    const control = label.control;
    return control !== null && this.#actionables.length === at + 2 && this.#actionables[at + 1]?.element === control;
  }

  /** A hidden control a person still operates through a <label> they can see (custom checkboxes, file inputs). */
  #operableThroughLabel(element: Element, tag: string): boolean {
    if (!LABELABLE_TAGS.has(tag)) return false;
    return this.#labelsOf(element).some((label) => {
      if (!labelShows(label, this.#reach)) return false;
      const style = getComputedStyle(label);
      return sightOf(label, style, style.display, this.#sightAbove(label), this.#reach, false).seen;
    });
  }

  /**
   * Role and name of one element exactly as a snapshot would compute them, treating it as
   * actionable (it was, when it got its ref). Only meaningful for a rendered element.
   */
  describe(element: Element): { role: string; name: string } {
    this.#walkElement(element, { ...ROOT, inGrid: element.closest('[role=grid], [role=treegrid]') !== null }, [], [], true, false);
    const own = this.#actionables[0];
    return own !== undefined && own.element === element ? { role: own.role, name: own.name } : { role: '', name: '' };
  }

  /**
   * A control made transparent over something a person can see, which takes their clicks there: the toggle of a
   * TodoMVC item (an `opacity: 0` checkbox laid over its label's drawn circle), a styled file input. Its own opacity
   * (not an ancestor's) hides it, it overlaps a visible sibling, and — where that can be checked, in the viewport —
   * nothing else is on top of it.
   */
  #operableWhileTransparent(element: Element, style: CSSStyleDeclaration, inherited: Inherited): boolean {
    if (!inherited.sight.shown || inherited.sight.opacity * parseFloat(style.opacity) >= MIN_OPACITY) return false;
    const box = element.getBoundingClientRect();
    if (!bigEnough(box)) return false;
    const overlaps = (sibling: Element | null): boolean => {
      if (sibling === null || !sibling.checkVisibility({ opacityProperty: true, visibilityProperty: true } as CheckVisibilityOptions)) return false;
      const other = sibling.getBoundingClientRect();
      return bigEnough(other) && other.left < box.right && box.left < other.right && other.top < box.bottom && box.top < other.bottom;
    };
    if (!overlaps(element.previousElementSibling) && !overlaps(element.nextElementSibling)) return false;
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return true;
    const root = element.getRootNode();
    const hit = root instanceof Document || root instanceof ShadowRoot ? root.elementFromPoint(x, y) : null;
    return hit === element;
  }

  /**
   * A native control the page hid from sight (clipped to nothing, a pixel in size) under a drawing of its own that a
   * person points at instead: MUI's Slider draws a thumb over a clipped `<input type=range>`. It is shown as the
   * control it is (role, name, value, range), and pointer actions on its ref aim at that drawn part (pointerPart.ts).
   */
  #operableThroughDrawing(element: Element, inherited: Inherited): boolean {
    const part = drawnPartOf(element);
    if (part === null) return false;
    if (inherited.sight.shown) return true;
    // A wrapper between the part and the control hid it (react-aria's VisuallyHidden): the part itself must be seen.
    const style = getComputedStyle(part);
    return sightOf(part, style, style.display, this.#sightAbove(part), this.#reach).inside.shown;
  }

  /**
   * One child of `parent`. Text nodes have no style of their own: the parent's font decides whether they can be
   * read (read once, and only for a parent with text). Returns PAINTED / HIDDEN_TEXT flags.
   */
  #walkNode(node: Node, parent: Children): number {
    // nodeType, not instanceof: this runs for every node of the page and is measurably cheaper.
    const type = node.nodeType;
    const inherited = parent.inherited;
    if (type === Node.TEXT_NODE) {
      if (!inherited.visible) return 0;
      const data = (node as Text).data;
      parent.text.push(data);
      // Whitespace that pre-formatted text keeps (line breaks, indentation): the parent's white-space is read only
      // for text that has some, once per parent.
      const spaces = mayKeepSpaces(data) ? (parent.spaces ??= spacesOf(parent.style)) : 'collapse';
      if (data.trim() === '') {
        // The space a page renders between inline elements ("<b>200</b> <i>g</i>"): kept in the run, so the words
        // do not run together (a run of nothing but spaces is dropped when runs are merged).
        if (inherited.sight.shown) parent.out.push(spaces === 'collapse' ? SPACE : keptItem(keptText(data, spaces)));
        return 0;
      }
      parent.legible ??= legibleFont(parent.style.fontSize);
      // Text a person cannot see still names a control (see visibility.ts) but is never text of its own.
      if (!inherited.sight.shown || !parent.legible) return HIDDEN_TEXT;
      parent.out.push(spaces === 'collapse' ? { role: 'text', name: data } : keptItem(keptText(data, spaces)));
      return PAINTED;
    }
    if (type !== Node.ELEMENT_NODE) return 0;
    // Once something here painted, nobody needs to know whether the rest does.
    return this.#walkElement(node as Element, inherited, parent.out, parent.text, false, parent.askPaint && (parent.flags & PAINTED) === 0);
  }

  /**
   * `askPaint`: the caller needs to know whether this subtree paints anything (it has nothing painted yet
   * and must decide whether it is seen); otherwise boxes are not measured where text already answers.
   * Returns PAINTED / HIDDEN_TEXT flags.
   */
  #walkElement(element: Element, inherited: Inherited, out: Item[], text: string[], forced: boolean, askPaint: boolean): number {
    const tag = element.localName;
    // Most elements of a big page (cells, rows, spans) carry no attributes at all; knowing that
    // up front skips a dozen attribute lookups per element, each a DOM call from our world.
    const bare = !element.hasAttributes();
    if (!forced) {
      if (SKIPPED_TAGS.has(tag)) return 0;
      // Hidden from assistive technology, not from sight: left out of the tree, but what it draws is drawn (the icon
      // that is all an icon-only control shows: react-select's remove ×, Shoelace's stars), so the control shows.
      if (!bare && element.getAttribute('aria-hidden') === 'true') return askPaint && inherited.visible && drawsAnything(element, inherited.sight, this.#reach) ? PAINTED : 0;
      // With a modal dialog open, the rest of the page is inert for a person and absent from Chrome's tree.
      if (!inherited.inModal && element !== this.#modal && !this.#modalPath.has(element)) return 0;
      if (SVG_UNRENDERED.has(tag) && element instanceof SVGElement) return 0;
    }
    const style = getComputedStyle(element);
    const display = style.display;
    if (display === 'none' && !forced) return revealedOnHover(inherited) && holdsControl(element) ? HIDDEN_CONTROL : 0;
    const visible = forced || style.visibility === 'visible';
    if (tag === 'br' && !forced) {
      // A line break in the text, kept in its run (an address, a poem: not "221B Baker StLondon").
      if (visible && inherited.sight.shown) out.push(LINE_BREAK);
      if (visible) text.push('\n');
      return 0;
    }
    // A control hidden now inside a row: the row is what a person hovers to show it (reported up, see HOVER_ROLES).
    let hiddenControl = !visible && revealedOnHover(inherited) && element.matches(CONTROL_SELECTOR) ? HIDDEN_CONTROL : 0;
    const sight = sightOf(element, style, display, inherited.sight, this.#reach, (tag === 'body' || tag === 'html') && isViewportOwner(element));
    const seen = forced || sight.seen;

    if (tag === 'iframe' || tag === 'frame') {
      // A frame's document is walked in its own world (same-origin or not, one code path); the
      // worker hangs that tree under this node, matched through the element (see api.frameSlot).
      // A frame nobody can see is left out with everything in it.
      if (visible && seen && (forced || paintsItself(element, tag, style))) {
        const name = cap(explicitName(element, this.#labelsOf, bare));
        const node = withName({ role: 'iframe' }, name);
        this.#frames.push({ element, node });
        // The frame's ref names it for `--frame @ref` (reads and js inside it) and for pointer actions on it.
        this.#actionables.push({ element, role: 'iframe', name, holder: inherited.holder, node });
        out.push(node);
        return PAINTED;
      }
      return 0;
    }

    const role = visible ? computeRole(element, inherited, bare) : 'none';
    // The options of a closed native dropdown draw only in the browser's popup, which no pointer event of the page
    // reaches: they are its listed choices (`select @ref "Germany"` picks one), not refs of their own.
    const interactive = INTERACTIVE_ROLES.has(role) && !(tag === 'option' && inDropdown(element));
    // Inside an interactive element everything is part of it, so its descendants count as having a
    // pointer parent whatever their cursor; and its own cursor need not be read (a style lookup).
    const pointer = interactive || INTERACTIVE_CURSORS.has(style.cursor);
    const clickable = visible && !interactive && isClickable(element, tag, bare, pointer, inherited.pointer);
    // Only a page listener says it is clickable: a container whose descendants are controls is probably
    // delegating their events (`$(list).on('dblclick', 'label', …)`), so it keeps a ref only without them. The items
    // of a list that listens for presses (a jQuery UI sortable, a delegated menu) are what a person presses: each
    // gets a ref the same way, unless something inside it has one.
    const pinned = visible && !interactive && !clickable && !forced && this.#pinned.has(element);
    const hinted = visible && !interactive && !clickable && !forced && !pinned && tag !== 'body' && tag !== 'html' && this.#hints.has(element);
    const listened = hinted || (visible && !interactive && !clickable && !forced && !pinned && inherited.delegates && ITEM_ROLES.has(role));
    let actionable = forced || (visible && (interactive || clickable || listened || pinned));
    const explicit = visible ? explicitName(element, this.#labelsOf, bare) : '';
    const ownHolder: ContextHolder | null =
      visible && isIdentifyingAncestor(role, explicit) ? { role, explicitName: cap(explicit), text: '' } : null;

    // Reserve the slot now so actionables stay in document (pre-)order; filled in below.
    const actionablesBefore = this.#actionables.length;
    const framesBefore = this.#frames.length;
    let entry: Actionable | undefined;
    if (actionable) {
      entry = { element, role, name: '', holder: inherited.holder, node: { role } };
      this.#actionables.push(entry);
    }

    const childOut: Item[] = [];
    const childText: string[] = [];
    const holder = ownHolder ?? inherited.holder;
    const inGrid = role === 'table' ? false : role === 'grid' || role === 'treegrid' ? true : inherited.inGrid;
    const inside = sight.inside;
    // A list's rows sit in a rowgroup: the delegation passes through it.
    const delegates = (hinted && ITEM_CONTAINER_ROLES.has(role)) || (inherited.delegates && (role === 'rowgroup' || role === 'generic' || role === 'none'));
    const inControl = inherited.inControl || actionable;
    const inModal = inherited.inModal || element === this.#modal;
    // Reuse the parent's object when nothing changes: one allocation less per element adds up.
    const passed =
      pointer === inherited.pointer &&
      holder === inherited.holder &&
      visible === inherited.visible &&
      inGrid === inherited.inGrid &&
      inside === inherited.sight &&
      delegates === inherited.delegates &&
      inControl === inherited.inControl &&
      inModal === inherited.inModal
        ? inherited
        : { pointer, holder, visible, inGrid, sight: inside, delegates, inControl, inModal };
    // An element that shows up as a node must know whether it paints; a transparent one only when asked.
    const wantPaint = askPaint || !(!visible || (TRANSPARENT_ROLES.has(role) && !actionable && explicit === ''));
    const below = this.#walkChildren(element, tag, role, { inherited: passed, out: childOut, text: childText, style, askPaint: wantPaint, flags: 0 });

    // A <label> made to look clickable around its own control (Shoelace's checkbox and switch: `cursor: pointer` on the
    // label holding the input) is that control to a person, and the browser forwards its clicks there: one ref, the
    // control's, with the label's text as its name. A label holding anything else to act on keeps its own.
    if (entry !== undefined && !forced && !interactive && element instanceof HTMLLabelElement && this.#wrapsOnlyItsControl(element, actionablesBefore)) {
      this.#actionables.splice(actionablesBefore, 1);
      entry = undefined;
      actionable = false;
    }
    if (listened && this.#actionables.length > actionablesBefore + 1) {
      this.#actionables.splice(actionablesBefore, 1);
      entry = undefined;
      actionable = false;
    }
    const hover = HOVER_ROLES.has(role);
    if (hover && !actionable && visible && (below & HIDDEN_CONTROL) !== 0) {
      entry = { element, role, name: '', holder: inherited.holder, node: { role } };
      this.#actionables.splice(actionablesBefore, 0, entry);
      actionable = true;
    }
    // A row takes the hidden controls inside it as its own; outside it they no longer count.
    if (!hover) hiddenControl |= below & HIDDEN_CONTROL;
    const transparent = !visible || (TRANSPARENT_ROLES.has(role) && !actionable && explicit === '');

    const joined = childText.join('');
    // Normalizing is a regex pass over the whole subtree's text: only pay for it where it is used.
    let content: string | undefined;
    if (ownHolder !== null) ownHolder.text = content = normalizeText(joined);

    const block = !isInlineDisplay(display);
    // A rich-text field's content, read once: its value (lines kept) and its bold and italic runs (text.ts).
    const editor = visible && role === 'textbox' && element instanceof HTMLElement && element.isContentEditable ? textLines(element) : undefined;
    const value = editor !== undefined ? editor.text : visible ? controlValue(element, role) : undefined;
    const contribution = this.#contribution(element, role, visible, bare, explicit, joined, value);
    text.push(block ? ` ${contribution} ` : contribution);

    let painted = seen && this.#paints(element, tag, role, style, visible, below, wantPaint);
    // A ref is worth a layout read: a control moved far out of reach by a transform or margin gets none. One that
    // layout merely pushed past the edge (a centred form taller than the window overflows above its top, where no
    // scrolling reaches) stays, marked: Chrome keeps it, and fill/select need no pointer.
    let unreachable = false;
    if (painted && entry !== undefined && !forced && !sight.positioned && offScreen(element, inherited.sight, this.#reach)) {
      if (withinReach(element, this.#reach)) unreachable = true;
      else painted = false;
    }
    let flags = (painted ? PAINTED : 0) | (below & HIDDEN_TEXT);
    if (!transparent && !painted && contribution.trim() !== '') flags |= HIDDEN_TEXT;

    if (
      !transparent &&
      !forced &&
      !painted &&
      !(entry !== undefined && visible && (this.#operableThroughLabel(element, tag) || this.#operableWhileTransparent(element, style, inherited) || this.#operableThroughDrawing(element, inherited)))
    ) {
      // Nobody can see it: no node, no ref, nothing inside either (its text may still name an enclosing control).
      this.#actionables.length = actionablesBefore;
      this.#frames.length = framesBefore;
      // A control faded out inside a row is one it shows on hover.
      if (entry !== undefined && revealedOnHover(inherited)) hiddenControl = HIDDEN_CONTROL;
      return flags | hiddenControl;
    }

    if (transparent && element instanceof HTMLLabelElement && element.control !== null) {
      // The label's text is already the control's name; keep only the non-text items (the control).
      const kept = childOut.filter((item) => item === BREAK || item.role !== 'text');
      out.push(BREAK, ...kept, BREAK);
      return flags | hiddenControl;
    }
    if (transparent) {
      if (block) out.push(BREAK, ...childOut, BREAK);
      else out.push(...childOut);
      return flags | hiddenControl;
    }

    const contentNamed = NAME_FROM_CONTENT_ROLES.has(role) || (actionable && !INTERACTIVE_ROLES.has(role));
    let name = explicit;
    // Only a control's name includes text nobody sees (sr-only labels of icon buttons); a heading or cell with
    // hidden text inside is not named from content: its visible text stays as its children.
    if (name === '' && contentNamed && (actionable || (below & HIDDEN_TEXT) === 0)) {
      name = content ?? normalizeText(joined);
      // CSS generated content is part of a control's name (an icon button whose label is `::after { content: "×" }`).
      if (actionable) name = withGeneratedContent(element, name);
    }
    if (name === '' && !bare) name = fallbackName(element);
    const node: PageNode = entry?.node ?? { role };
    if (name === '' && entry !== undefined && role !== 'iframe') {
      // Nothing names it the way Chrome does; what a person goes by instead (its icon, tooltip, nearby label),
      // marked as such in the line.
      const inferred = inferredName(element, role);
      if (inferred !== undefined) {
        name = inferred.name;
        node.nameFrom = inferred.from;
      }
    }
    // A ref's name is part of its identity: always cut at NAME_CAP, whatever --max-text says.
    const nameCap = entry !== undefined ? NAME_CAP : Math.max(NAME_CAP, this.#maxText);
    if (name.length > nameCap) node.nameLength = name.length;
    name = cap(name, nameCap);
    if (name !== '') node.name = name;
    addStates(node, element, role, bare, this.#maxText, value);
    if (unreachable) node.offscreen = true;
    // State a page draws as an image (a board's X and O, a starred star): said as [img: …] when it is not the name.
    if ((entry !== undefined || IMAGE_STATE_ROLES.has(role)) && node.nameFrom !== 'icon' && tag !== 'img') {
      const image = cssImageWords(element, style);
      if (image !== '') node.img = image;
    }
    if (element === this.#focused && tag !== 'body' && tag !== 'html') node.focused = true;

    let children = mergeItems(childOut, this.#maxText);
    // A structural container (a cell, a header cell) holding more than text is said by its children, all of them: its
    // text runs stay beside its links (`link "Bren Estuary"` then `", sea level"`). Never for an actionable node: its
    // name is part of what its ref means.
    if (STRUCTURAL_CONTENT_ROLES.has(role) && !actionable && explicit === '' && children.some((child) => child.role !== 'text')) delete node.name;
    // Otherwise the content already is the name; repeating it as text children only costs tokens. Not for a pinned
    // element (a covering layer handed over with a ref): its name is cut short, and its text is what the agent reads.
    else if (contentNamed && name !== '' && !pinned) children = children.filter((child) => child.role !== 'text');
    if (editor !== undefined) children = emphasisNodes(editor, this.#maxText);
    if (children.length > 0) node.children = children;

    if (entry !== undefined) {
      entry.name = name;
    } else if (node.name === undefined && node.children === undefined && node.value === undefined && node.img === undefined) {
      return flags | hiddenControl; // An empty list, row, unnamed image…: nothing an agent can read or use.
    }
    out.push(node);
    return flags | hiddenControl;
  }

  /** Whether an element that can be seen shows anything (see visibility.ts); `below` is what its children showed. */
  #paints(element: Element, tag: string, role: string, style: CSSStyleDeclaration, visible: boolean, below: number, wantPaint: boolean): boolean {
    // A <select>'s options draw only in its popup: its own box decides, and its options go with it.
    if (tag === 'select') return visible && paintsItself(element, tag, style);
    if (tag === 'option' || tag === 'optgroup') return true;
    // An editing host is an area to type into, like a text field: its content is its value, not walked.
    if (role === 'textbox' && element instanceof HTMLElement && element.isContentEditable) return visible && bigEnough(element.getBoundingClientRect());
    return (below & PAINTED) !== 0 || (wantPaint && visible && paintsItself(element, tag, style));
  }

  /** Walks the rendered children; returns their PAINTED / HIDDEN_TEXT flags combined. */
  #walkChildren(element: Element, tag: string, role: string, children: Children): number {
    // SVG internals are drawing primitives (unless they hold a link); a textarea's children are its initial
    // value, and a contenteditable textbox's children are its value.
    // Inside a control they are part of it; elsewhere a shape may be a target of its own (a chart's point with a
    // click listener, an icon with a pointer cursor), walked like any element.
    if ((tag === 'svg' && children.inherited.inControl && element.querySelector('a') === null) || tag === 'textarea') return 0;
    if (role === 'textbox' && element instanceof HTMLElement && element.isContentEditable) return 0;
    if (tag === 'details' && element instanceof HTMLDetailsElement && !element.open) {
      // A closed <details> renders only its summary.
      for (const child of element.children) {
        if (child.localName === 'summary') {
          children.flags |= this.#walkNode(child, children);
          break;
        }
      }
      return children.flags;
    }
    if (tag === 'slot' && element instanceof HTMLSlotElement) {
      const assigned = element.assignedNodes();
      if (assigned.length > 0) {
        for (const node of assigned) children.flags |= this.#walkNode(node, children);
        return children.flags;
      }
    }
    // Light-DOM children of a host render only through its slots, which the shadow tree visits.
    // firstChild/nextSibling: iterating childNodes costs several times more on big pages.
    const parent: Node = element.shadowRoot ?? element;
    if (parent !== element) this.#shadowRoots = true;
    for (let child = parent.firstChild; child !== null; child = child.nextSibling) children.flags |= this.#walkNode(child, children);
    return children.flags;
  }

  /** What this element adds to an enclosing name from content (accname's recursive step). */
  #contribution(element: Element, role: string, visible: boolean, bare: boolean, explicit: string, childText: string, value: string | undefined): string {
    if (!visible) return childText;
    const ariaLabel = bare ? null : element.getAttribute('aria-label');
    if (ariaLabel !== null && ariaLabel.trim() !== '') return ariaLabel;
    if (value !== undefined) return value;
    // A slot's text is its assigned nodes', a shadow host's its shadow tree's: neither are child nodes.
    if (role === 'img' || (!element.hasChildNodes() && element.shadowRoot === null && element.localName !== 'slot')) {
      // A control inside the content being named adds its own label attributes, not its <label>'s text: that label
      // is what is being read (a Shoelace checkbox's shadow <label> around its input and slotted text says it once).
      return LABELABLE_TAGS.has(element.localName) && explicit !== '' ? explicitName(element, NO_LABELS, bare) : explicit;
    }
    return childText;
  }
}

/**
 * A non-ARIA element a person can act on, found without touching the page: an inline handler of a pointer action
 * (onclick, ondblclick, ondrop…), an explicit tabindex >= 0, `draggable="true"`, or a pointer cursor its parent
 * does not have (cursor is inherited, so only the outermost pointer element of a clickable area gets a ref, not
 * each descendant). Listeners added with addEventListener come from the worker (listenerHints.ts).
 */
function isClickable(element: Element, tag: string, bare: boolean, pointer: boolean, parentPointer: boolean): boolean {
  if (tag === 'html' || tag === 'body') return false;
  if (!bare) {
    // One pass over the attributes (most elements have one or two) instead of a lookup per handler name.
    for (const attribute of element.attributes) {
      const name = attribute.name;
      if (name.charCodeAt(0) === 111 /* o */ && name.charCodeAt(1) === 110 /* n */ && ACTION_HANDLERS.has(name)) return true;
      if (name === 'draggable' && attribute.value === 'true') return true;
    }
    if (element.hasAttribute('tabindex') && element instanceof HTMLElement && element.tabIndex >= 0) return true;
  }
  return pointer && !parentPointer;
}

/** An <option> of a <select> that shows as a dropdown (not a list box). */
function inDropdown(option: Element): boolean {
  const parent = option.parentElement;
  const select = parent?.localName === 'optgroup' ? parent.parentElement : parent;
  return select instanceof HTMLSelectElement && !select.multiple && select.size <= 1;
}

/** Inside a row, list item… (HOVER_ROLES): a hidden control there is probably shown on hover. */
function revealedOnHover(inherited: Inherited): boolean {
  return inherited.holder !== null && HOVER_ROLES.has(inherited.holder.role);
}

/** The element is a control or holds one (it is hidden, so its content was not walked). */
function holdsControl(element: Element): boolean {
  return element.matches(CONTROL_SELECTOR) || element.querySelector(CONTROL_SELECTOR) !== null;
}

/** A name from content with the element's own ::before/::after text, or, when still empty, its descendants'. */
function withGeneratedContent(element: Element, name: string): string {
  const own = normalizeText(`${glyphless(pseudoText(element, '::before'))}${name}${glyphless(pseudoText(element, '::after'))}`);
  if (own !== '') return own;
  // An icon element inside an otherwise empty control (`<button><i class="icon-close"></i></button>`).
  let found = '';
  const icons = element.querySelectorAll('*');
  for (let i = 0; i < icons.length && i < MAX_ICON_ELEMENTS && found === ''; i++) {
    const icon = icons[i];
    if (icon !== undefined) found = normalizeText(glyphless(`${pseudoText(icon, '::before')}${pseudoText(icon, '::after')}`));
  }
  return found;
}

/**
 * Generated text without private-use characters: an icon font's glyph (`content: "\f005"`) means nothing as text;
 * the icon's class names it instead (names.ts inferredName).
 */
function glyphless(text: string): string {
  return text.replace(/[\uE000-\uF8FF\u{F0000}-\u{10FFFD}]/gu, '');
}

/** <html>, and the document's <body>: their overflow belongs to the viewport. */
function isViewportOwner(element: Element): boolean {
  return element === document.documentElement || element === document.body;
}

function keptItem(text: string): KeptText {
  return { role: 'text', name: text, kept: true };
}

/** A rich-text field's bold and italic runs, as children of its node (`- strong "careful"`), and a marker for more. */
function emphasisNodes(editor: TextLines, maxText: number): PageNode[] {
  const nodes: PageNode[] = editor.emphasis.map(({ kind, text }) => {
    const node: PageNode = { role: kind, name: cap(text, maxText) };
    if (text.length > maxText) node.nameLength = text.length;
    return node;
  });
  if (editor.moreEmphasis > 0) nodes.push({ role: 'elided', name: `${editor.moreEmphasis} more bold or italic runs not listed` });
  return nodes;
}

/** A finite number from an attribute, or undefined. */
function numberAttribute(element: Element, name: string): number | undefined {
  const raw = element.getAttribute(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * The bounds a slider or spin button moves between: a native input's min and max (a range input's default to 0 and
 * 100), else aria-valuemin/max (a slider's default to 0 and 100, as ARIA says).
 */
function rangeOf(element: Element, role: string, bare: boolean): { min?: number; max?: number } {
  if (element instanceof HTMLInputElement && (element.type === 'range' || element.type === 'number')) {
    const range = element.type === 'range';
    const min = numberAttribute(element, 'min') ?? (range ? 0 : undefined);
    const max = numberAttribute(element, 'max') ?? (range ? 100 : undefined);
    return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
  }
  const slider = role === 'slider';
  const min = (bare ? undefined : numberAttribute(element, 'aria-valuemin')) ?? (slider ? 0 : undefined);
  const max = (bare ? undefined : numberAttribute(element, 'aria-valuemax')) ?? (slider ? 100 : undefined);
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

function withName(node: PageNode, name: string): PageNode {
  if (name !== '') node.name = name;
  return node;
}

function addStates(node: PageNode, element: Element, role: string, bare: boolean, maxText: number, value: string | undefined): void {
  // Exactly as the page holds it (a trailing space, line breaks): the renderer escapes, nothing is trimmed.
  if (value !== undefined && value !== '') {
    node.value = cap(value, maxText);
    if (value.length > maxText) node.valueLength = value.length;
  }
  if (((element instanceof HTMLInputElement && !NO_READONLY_TYPES.has(element.type)) || element instanceof HTMLTextAreaElement) && element.readOnly && !element.disabled) node.readonly = true;
  else if (!bare && element.getAttribute('aria-readonly') === 'true') node.readonly = true;
  if (role === 'link' && !bare) {
    // The attribute as written (possibly relative): resolving it through .href costs more than
    // the rest of a link's processing together, and the page URL is in the snapshot result.
    const href = element.getAttribute('href');
    if (href !== null && href !== '') node.url = cap(href, URL_CAP);
  }
  if (role === 'heading') {
    const level = Number((bare ? null : element.getAttribute('aria-level')) ?? /^h([1-6])$/.exec(element.localName)?.[1] ?? NaN);
    if (Number.isInteger(level) && level > 0) node.level = level;
  }
  if (CHECKABLE_ROLES.has(role)) {
    const aria = bare ? null : element.getAttribute('aria-checked');
    if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) {
      node.checked = element.indeterminate ? 'mixed' : element.checked ? 'true' : 'false';
    } else if (aria === 'true' || aria === 'false' || aria === 'mixed') {
      node.checked = aria;
    } else {
      node.checked = 'false';
    }
  }
  if ((!bare && element.getAttribute('aria-disabled') === 'true') || (FORM_CONTROL_TAGS.has(element.localName) && element.matches(':disabled'))) {
    node.disabled = true;
  }
  const expanded = bare ? null : element.getAttribute('aria-expanded');
  if (expanded === 'true' || expanded === 'false') node.expanded = expanded === 'true';
  else if (element.localName === 'summary' && element.parentElement instanceof HTMLDetailsElement) node.expanded = element.parentElement.open;
  if (element instanceof HTMLOptionElement ? element.selected : !bare && element.getAttribute('aria-selected') === 'true') node.selected = true;
  if (role === 'textbox') {
    if (element.localName === 'textarea' || (!bare && element.getAttribute('aria-multiline') === 'true')) node.multiline = true;
    else if (element instanceof HTMLElement && element.isContentEditable) node.richtext = true;
  }
  if (RANGE_ROLES.has(role)) {
    const range = rangeOf(element, role, bare);
    if (range.min !== undefined) node.min = range.min;
    if (range.max !== undefined) node.max = range.max;
  }
  if (bare) return;
  if (role === 'button') {
    const pressed = element.getAttribute('aria-pressed');
    if (pressed === 'true' || pressed === 'false' || pressed === 'mixed') node.pressed = pressed;
  }
  if (element.getAttribute('aria-required') === 'true' || ((element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) && element.required)) {
    node.required = true;
  }
}

/** Merge adjacent text items (not across block boundaries), normalize and cap them, drop BREAKs. */
function mergeItems(items: readonly Item[], maxText: number): PageNode[] {
  const result: PageNode[] = [];
  let run: Piece[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    const text = joinPieces(run);
    if (text !== '') {
      const node: PageNode = { role: 'text', name: cap(text, maxText) };
      if (text.length > maxText) node.nameLength = text.length;
      result.push(node);
    }
    run = [];
  };
  for (const item of items) {
    if (item === BREAK) {
      flush();
    } else if ('kept' in item) {
      run.push({ text: item.name, kept: true });
    } else if (item.role === 'text' && item.children === undefined && item.name !== undefined) {
      run.push({ text: item.name, kept: false });
    } else {
      flush();
      result.push(item);
    }
  }
  flush();
  return result;
}

/**
 * The modal dialog open now, if any: a <dialog> opened with showModal() (`:modal`), else the last shown element with
 * aria-modal="true" and a dialog role (the one opened last sits on top). Null when none is open.
 */
function openModal(): Element | null {
  let native: Element | null = null;
  try {
    native = document.querySelector('dialog:modal');
  } catch {
    native = null;
  }
  if (native !== null) return native;
  const marked = document.querySelectorAll('[aria-modal="true"]');
  for (let i = marked.length - 1; i >= 0; i--) {
    const candidate = marked[i];
    if (candidate === undefined) continue;
    const role = (candidate.getAttribute('role') ?? (candidate.localName === 'dialog' ? 'dialog' : '')).trim().split(/\s+/)[0];
    if (role !== 'dialog' && role !== 'alertdialog') continue;
    if (!candidate.checkVisibility({ visibilityProperty: true, opacityProperty: true } as CheckVisibilityOptions)) continue;
    const box = candidate.getBoundingClientRect();
    if (bigEnough(box)) return candidate;
  }
  return null;
}
