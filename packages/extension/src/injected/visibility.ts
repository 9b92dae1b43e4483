/**
 * What a person can see. The snapshot is what an agent reads and acts on, so content a person cannot see must not
 * be in it: otherwise a page can hide instructions meant for the agent (prompt injection), or an invisible button
 * for it to click. The walker asks this module, top-down, whether an element can be seen at all (`sightOf`), and
 * bottom-up whether it shows anything (`paintsItself`, plus legible text and painted children).
 *
 * Left out, with everything inside (display:none, visibility:hidden and aria-hidden are the walker's own rules):
 *   - effective opacity (the product down the ancestors) under MIN_OPACITY;
 *   - positioned (not static) and clipped to less than MIN_BOX_PX by `clip` or `clip-path: inset() / circle() /
 *     ellipse()`: the "visually hidden" (sr-only) pattern;
 *   - positioned entirely outside the area the document can scroll to (left:-9999px), or, when fixed, outside the
 *     viewport; for a control (anything that would get a ref) also when moved there by a transform or margin;
 *   - inside a box under MIN_BOX_PX wide or high that clips its overflow (height:0; overflow:hidden);
 * and an element that paints nothing: no legible text (font-size ≥ MIN_FONT_PX), no painted child, and no box of its
 * own of at least MIN_BOX_PX × MIN_BOX_PX that draws something (a replaced element or form control, a background,
 * border, shadow or ::before/::after content).
 *
 * Kept on purpose:
 *   - content merely scrolled out of view, including inside scrolling or clipping containers (a carousel, a long
 *     list): the page or the person can bring it back, and positions there are not judged;
 *   - the accessible NAME of a visible control still includes text a person cannot see, as in Chrome's
 *     accessibility tree: that is how icon buttons are named (sr-only text, aria-label). Such text never appears as
 *     text of its own and never names a non-interactive node (a heading or cell shows only what is visible);
 *   - a form control hidden by opacity, clipping or position whose <label> is visible (custom checkboxes, styled
 *     file inputs): the person operates it through the label, whose text is its name.
 * Not detected: text coloured like its background, covered by another element, or pushed away by text-indent;
 * clip-path or transforms on non-positioned text (each computed-style read costs about a microsecond per element,
 * so only the properties that decide the common cases are read for every element).
 *
 * A ref'd element that turns invisible after the snapshot keeps its ref (it is still the same element); the click
 * path decides what a click on it means.
 */

/** Below this effective opacity content is treated as invisible (fade-ins show up from 10 % on). */
export const MIN_OPACITY = 0.1;
/** Text set smaller than this (CSS px) cannot be read. */
export const MIN_FONT_PX = 4;
/** A box (or a clip) narrower or shorter than this (CSS px) shows nothing a person can read or aim at. */
export const MIN_BOX_PX = 4;

/** The computed-style properties the checks read. */
export type SightStyle = Pick<CSSStyleDeclaration, 'opacity' | 'position' | 'overflow' | 'overflowX' | 'overflowY' | 'clip' | 'clipPath'>;
export type PaintStyle = Pick<CSSStyleDeclaration, 'backgroundImage' | 'backgroundColor' | 'borderWidth' | 'boxShadow' | 'content'>;

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}

export type Measurable = Pick<Element, 'getBoundingClientRect'>;

/** What an element passes down to its content. Shared, never mutated: an unchanged Sight is passed on as is. */
export interface Sight {
  /** Effective opacity of the content here. */
  readonly opacity: number;
  /** Content here can be seen (not transparent, clipped away or off-screen). */
  readonly shown: boolean;
  /** Inside a container that scrolls or clips: the page may scroll it, so positions are not judged. */
  readonly contained: boolean;
}

export const FULL_SIGHT: Sight = { opacity: 1, shown: true, contained: false };

/** The areas content can be brought into, in viewport coordinates now; null bounds are not judged. */
export interface Reach {
  /** What scrolling the document can reach. */
  document: { left: number | null; top: number; right: number | null; bottom: number };
  /** Fixed elements do not scroll. */
  viewport: Box;
}

/** Read once per walk, on first use: most pages have few positioned elements. */
export function readReach(): Reach {
  const root = document.scrollingElement ?? document.documentElement;
  const width = root.scrollWidth;
  const height = root.scrollHeight;
  const viewport = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight, width: window.innerWidth, height: window.innerHeight };
  const style = getComputedStyle(document.documentElement);
  if (style.writingMode !== 'horizontal-tb') {
    // Vertical writing modes scroll along other axes; not judged rather than judged wrong.
    return { document: { left: null, top: -Infinity, right: null, bottom: Infinity }, viewport };
  }
  // Right-to-left documents overflow (and scroll) to the left of the origin.
  const rtl = style.direction === 'rtl';
  const minX = rtl ? root.clientWidth - width : 0;
  return {
    document: { left: minX - window.scrollX, top: -window.scrollY, right: minX + width - window.scrollX, bottom: height - window.scrollY },
    viewport,
  };
}

function parsePx(value: string): number {
  const number = parseFloat(value);
  return Number.isFinite(number) ? number : 0;
}

/** `clip: rect(top, right, bottom, left)` leaving less than MIN_BOX_PX in some dimension. */
export function clipRectHides(clip: string): boolean {
  if (clip === 'auto') return false;
  const match = /^rect\(([^)]*)\)$/.exec(clip.trim());
  if (match === null || match[1] === undefined) return false;
  const parts = match[1].split(/[\s,]+/).filter((part) => part !== '');
  if (parts.length !== 4) return false;
  const [top, right, bottom, left] = parts.map((part) => (part === 'auto' ? null : parsePx(part)));
  const tooSmall = (from: number | null | undefined, to: number | null | undefined): boolean =>
    from !== null && from !== undefined && to !== null && to !== undefined && to - from < MIN_BOX_PX;
  return tooSmall(top, bottom) || tooSmall(left, right);
}

/** A length of `clip-path` (px or % of `size`). */
function lengthOf(value: string, size: number): number {
  return value.endsWith('%') ? (parsePx(value) / 100) * size : parsePx(value);
}

/** `clip-path` shapes that leave less than MIN_BOX_PX of the element: inset(50%), circle(0), ellipse(0 0). */
export function clipPathHides(clipPath: string, element: Measurable): boolean {
  if (clipPath === 'none') return false;
  const shape = /^(inset|circle|ellipse)\((.*)\)$/.exec(clipPath.trim());
  if (shape === null || shape[2] === undefined) return false;
  const box = element.getBoundingClientRect();
  const args = (shape[2].split(/\s+(?:round|at)\s+/)[0] ?? '').trim().split(/\s+/).filter((part) => part !== '');
  if (shape[1] === 'inset') {
    const [top = '0', right = top, bottom = top, left = right] = args;
    const height = box.height - lengthOf(top, box.height) - lengthOf(bottom, box.height);
    const width = box.width - lengthOf(left, box.width) - lengthOf(right, box.width);
    return height < MIN_BOX_PX || width < MIN_BOX_PX;
  }
  // Radii (keywords such as closest-side are never judged): % of the reference box, per the spec.
  const diagonal = Math.hypot(box.width, box.height) / Math.SQRT2;
  const radius = (value: string | undefined, size: number): number | null => (value === undefined || !/^[-\d.]/.test(value) ? null : lengthOf(value, size));
  if (shape[1] === 'circle') {
    const r = radius(args[0], diagonal);
    return r !== null && 2 * r < MIN_BOX_PX;
  }
  const rx = radius(args[0], box.width);
  const ry = radius(args[1], box.height);
  return (rx !== null && 2 * rx < MIN_BOX_PX) || (ry !== null && 2 * ry < MIN_BOX_PX);
}

/** Entirely outside `area` (touching an edge is not outside: a zero-size wrapper at the origin is fine). */
export function outside(box: Box, area: Reach['document']): boolean {
  return (area.left !== null && box.right < area.left) || box.bottom < area.top || (area.right !== null && box.left > area.right) || box.top > area.bottom;
}

export interface SightOutcome {
  /** The element itself can be seen (its own box may still paint nothing: see paintsItself). */
  seen: boolean;
  /** Not position:static (sightOf already judged its clip and position). */
  positioned: boolean;
  /** What its content inherits. */
  inside: Sight;
}

/** Boxes `overflow` does not apply to (inline boxes, table rows and columns). */
const NO_OVERFLOW_DISPLAYS = new Set(['inline', 'table-row', 'table-row-group', 'table-header-group', 'table-footer-group', 'table-column', 'table-column-group']);

/** Text set in this computed font size can be read. */
export function legibleFont(fontSize: string): boolean {
  return parsePx(fontSize) >= MIN_FONT_PX;
}

/**
 * Whether an element can be seen at all (`seen`), and what its content inherits. `display` is the computed
 * display the caller already read; `reach` is read on first need; `viewportOwner` is true for <html> and <body>.
 *
 * Cost matters here (this runs for every element, and each computed-style read costs about a microsecond): three
 * reads for an ordinary element (opacity, position, overflow); clips and geometry only for positioned elements,
 * which are the ones that can be moved or clipped away. `offScreen` covers the others where it matters most.
 */
export function sightOf(element: Measurable, style: SightStyle, display: string, parent: Sight, reach: () => Reach, viewportOwner = false): SightOutcome {
  // Nothing inside content nobody can see can be seen; a box-less element (display:contents) has no opacity,
  // clip or position of its own.
  if (!parent.shown) return { seen: false, positioned: false, inside: parent };
  if (display === 'contents') return { seen: true, positioned: false, inside: parent };
  const ownOpacity = style.opacity;
  const opacity = ownOpacity === '1' ? parent.opacity : parent.opacity * parsePx(ownOpacity);
  let seen = opacity >= MIN_OPACITY;
  let contained = parent.contained;
  const position = style.position;
  const positioned = position !== 'static';
  if (positioned) {
    const fixed = position === 'fixed';
    // `clip` applies to absolutely positioned boxes only.
    if (seen && (fixed || position === 'absolute') && clipRectHides(style.clip)) seen = false;
    if (seen && clipPathHides(style.clipPath, element)) seen = false;
    if (seen && (fixed || !contained)) seen = !outside(element.getBoundingClientRect(), fixed ? reach().viewport : reach().document);
    // A fixed box escapes the scrolling containers around it.
    if (fixed) contained = false;
  }
  let shown = seen;
  // <html>'s and <body>'s overflow is the viewport's (`body { overflow: hidden }` while a modal is open): what
  // the document can scroll to is already `reach`.
  if (!viewportOwner && !NO_OVERFLOW_DISPLAYS.has(display) && style.overflow !== 'visible') {
    contained = true;
    if (seen) {
      const box = element.getBoundingClientRect();
      if ((style.overflowX !== 'visible' && box.width < MIN_BOX_PX) || (style.overflowY !== 'visible' && box.height < MIN_BOX_PX)) shown = false;
    }
  }
  const same = opacity === parent.opacity && shown === parent.shown && contained === parent.contained;
  return { seen, positioned, inside: same ? parent : { opacity, shown, contained } };
}

/**
 * Whether a visible-looking element sits entirely outside what scrolling can reach (moved by a transform, a
 * margin or a relative offset): sightOf judges only positioned elements, this is for the ones that get a ref.
 */
export function offScreen(element: Measurable, sight: Sight, reach: () => Reach): boolean {
  return !sight.contained && outside(element.getBoundingClientRect(), reach().document);
}

/**
 * Whether an element outside the scrollable area is still near it (within one viewport): pushed there by layout (a
 * centred box taller than the window overflows above the top), not moved far away on purpose (margin-left: -9999px).
 */
export function withinReach(element: Measurable, reach: () => Reach): boolean {
  const box = element.getBoundingClientRect();
  const { document: area, viewport } = reach();
  const gapY = Math.max(area.top - box.bottom, box.top - area.bottom, 0);
  const gapX = Math.max(area.left === null ? 0 : area.left - box.right, area.right === null ? 0 : box.left - area.right, 0);
  return gapY < viewport.height && gapX < viewport.width;
}

/** Elements that draw themselves (replaced elements, form controls, SVG shapes). */
const DRAWN_TAGS = new Set(['img', 'svg', 'canvas', 'video', 'audio', 'input', 'select', 'textarea', 'iframe', 'frame', 'embed', 'object', 'progress', 'meter', 'circle', 'rect', 'ellipse', 'path', 'polygon', 'polyline', 'line', 'image', 'use']);

function transparentColor(color: string): boolean {
  // Alpha 0: rgba(r, g, b, 0) or the space syntax's "/ 0" (color(), lab()…).
  return color === 'transparent' || /^rgba\((?:[^,]*,){3}\s*0(?:\.0*)?\)$/.test(color) || /\/\s*0(?:\.0*)?\)$/.test(color);
}

function hasPseudoContent(element: Element): boolean {
  for (const pseudo of ['::before', '::after']) {
    const content = getComputedStyle(element, pseudo).content;
    if (content !== 'none' && content !== 'normal' && content !== '') return true;
  }
  return false;
}

/** Whether a box is big enough to show anything (both sides at least MIN_BOX_PX). */
export function bigEnough(box: Box): boolean {
  return box.width >= MIN_BOX_PX && box.height >= MIN_BOX_PX;
}

/**
 * Whether the element's own box draws something a person can see (its content aside): big enough, and a
 * replaced element, or a background, border, shadow or generated content. `pseudo` is injectable for tests.
 */
export function paintsItself(element: Element, tag: string, style: PaintStyle, pseudo: (element: Element) => boolean = hasPseudoContent): boolean {
  if (!bigEnough(element.getBoundingClientRect())) return false;
  if (DRAWN_TAGS.has(tag)) return true;
  // `content: url(…)` on the element itself replaces it with that image (an icon drawn by CSS alone).
  if (style.content.startsWith('url(')) return true;
  return style.backgroundImage !== 'none' || !transparentColor(style.backgroundColor) || style.borderWidth !== '0px' || style.boxShadow !== 'none' || pseudo(element);
}

/**
 * A <label> a person can see and click (for controls hidden behind their label): rendered, not transparent,
 * big enough and within the document.
 */
export function labelShows(label: HTMLLabelElement, reach: () => Reach): boolean {
  if (!label.checkVisibility({ opacityProperty: true, visibilityProperty: true } as CheckVisibilityOptions)) return false;
  const box = label.getBoundingClientRect();
  return bigEnough(box) && !outside(box, reach().document);
}

/** Elements of an aria-hidden subtree looked at for something drawn: an icon is a few elements deep at most. */
const MAX_DRAWN_LOOK = 24;

/**
 * Whether an element left out of the tree for assistive technology (aria-hidden) still draws something a person
 * sees: it or one of its first few descendants (through shadow roots: an `<sl-icon>`'s SVG) can be seen by the same
 * rules as everything else (sightOf: opacity, clips, position) and draws a box of its own (an SVG, an image, a
 * background) or legible text. aria-hidden hides an icon from a screen reader, not from sight: the control around it
 * shows. An icon moved away or faded out draws nothing, so it shows no control.
 */
export function drawsAnything(element: Element, parent: Sight, reach: () => Reach): boolean {
  let budget = MAX_DRAWN_LOOK;
  const look = (node: Element, above: Sight): boolean => {
    if (--budget < 0) return false;
    const style = getComputedStyle(node);
    if (style.display === 'none') return false;
    const sight = sightOf(node, style, style.display, above, reach);
    if (!sight.seen) return false;
    const shown = style.visibility === 'visible';
    if (shown && paintsItself(node, node.localName, style)) return true;
    if (!sight.inside.shown) return false;
    const children = node.localName === 'slot' && node instanceof HTMLSlotElement && node.assignedNodes().length > 0 ? node.assignedNodes() : (node.shadowRoot ?? node).childNodes;
    for (const child of children) {
      if (child.nodeType === Node.TEXT_NODE) {
        if (shown && (child as Text).data.trim() !== '' && legibleFont(style.fontSize)) return true;
      } else if (child.nodeType === Node.ELEMENT_NODE && look(child as Element, sight.inside)) {
        return true;
      }
      if (budget < 0) return false;
    }
    return false;
  };
  return look(element, parent);
}
