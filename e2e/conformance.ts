/**
 * Snapshot conformance: our in-page roles and names against Chrome's own accessibility tree
 * (Accessibility.getFullAXTree), element by element, on the e2e fixtures and a set of tricky pages.
 * Shared by e2e/fidelity-conformance.e2e.ts (which fails under the bar) and scripts/snapshot-conformance.ts
 * (which writes docs/snapshot-conformance.md).
 *
 * Matching is exact, not by look-alike: each ref of `snapshot --json` is turned into its DOM node through the
 * DevTools observer — the ref's element as chrome-relay's isolated world holds it (`__chromeRelay.element`, read
 * only), then DOM.describeNode for its backend node id — and compared with Chrome's AX node for that same DOM node.
 * Chrome's interactive nodes that got no ref are counted too. Nothing here acts on the page.
 *
 * The set compared: every element with a ref, plus every element Chrome gives an interactive role. It agrees when
 * the roles are the same (through ROLE_EQUIVALENTS, Chrome's internal role names) and so are the names — except
 * where ARIA prohibits a name (generic containers: Chrome reports none, we name a clickable one by its content so
 * an agent can tell it apart), where the roles alone are compared. Every other difference must match one of
 * DELIBERATE (a difference on purpose, with its reason); anything else is unexplained and fails the e2e.
 */
import type { CDPSession, Page } from 'puppeteer-core';
import { quote } from '../packages/protocol/src/escape.js';
import type { Relay } from './harness.js';

/** Chrome's role names → ours. */
export const ROLE_EQUIVALENTS: Readonly<Record<string, string>> = {
  image: 'img',
  DisclosureTriangle: 'button',
  Iframe: 'iframe',
  LayoutTable: 'table',
  LayoutTableRow: 'row',
  LayoutTableCell: 'cell',
  LabelText: 'generic',
  Section: 'generic',
  // Date and time fields, and the colour picker's button, by Chrome's internal names.
  Date: 'textbox',
  DateTime: 'textbox',
  InputTime: 'textbox',
  ColorWell: 'button',
  // A contenteditable host: Chrome says generic (editable="richtext", focusable); we call it what an agent types into.
  'generic+editable': 'textbox',
  // An SVG shape (a chart's point) a person clicks: Chrome's graphics-symbol, our generic clickable element.
  'graphics-symbol': 'generic',
};

/**
 * Roles Chrome treats as something a person operates (its interactive roles, as we name them). Kept apart from the
 * walker's INTERACTIVE_ROLES on purpose: the oracle must not change when the code under test does.
 */
const INTERACTIVE = new Set([
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

/** Roles whose accessible name ARIA prohibits (Chrome reports none): only the role is compared. */
const NAME_PROHIBITED = new Set(['generic', 'none', 'presentation', 'paragraph', 'code', 'caption', 'deletion', 'insertion', 'strong', 'emphasis', 'subscript', 'superscript', 'time', 'term', 'definition', 'mark']);

export interface Seen {
  role: string;
  name: string;
  /** Ours only: the name is inferred (from an icon, a tooltip, a nearby label), marked so in the snapshot line. */
  inferred?: boolean;
}

export interface Difference {
  page: string;
  /** How to find it: our ref, or Chrome's node described. */
  where: string;
  ours?: Seen;
  chrome?: Seen;
  /** The deliberate difference it is (a key of DELIBERATE), or undefined: unexplained. */
  deliberate?: string;
}

export interface PageReport {
  page: string;
  /** Elements compared (refs ∪ Chrome's interactive elements a person can act on). */
  compared: number;
  agreed: number;
  differences: Difference[];
  /** Chrome's interactive nodes that are not something a person acts on here: invisible, or a part of a native control. */
  excluded: Difference[];
}

export interface Deliberate {
  why: string;
  matches(difference: Difference, hidden: string): boolean;
}

/** Differences on purpose. `hidden` is why a person cannot see the element ('' when they can). */
export const DELIBERATE: Readonly<Record<string, Deliberate>> = {
  inferred_name: {
    why: "A control Chrome leaves nameless (an icon-only button: its only content an icon font's private-use glyph, a CSS image, an aria-hidden SVG) is named by what a person goes by — the icon's file or class name, a tooltip, the label beside a field — and the line says so ([icon], [tooltip], [label]), so an agent can act on it and knows the name is inferred.",
    matches: (d) =>
      d.ours?.inferred === true && d.chrome !== undefined && d.ours.name !== '' && /^[\uE000-\uF8FF\s]*$/u.test(d.chrome.name) &&
      // An element replaced by its CSS image is Chrome's image; an editing host its generic.
      (d.ours.role === chromeRoleAsOurs({ role: d.chrome.role, editingHost: false }) || d.ours.role === 'generic' || d.chrome.role === 'generic' || d.chrome.role === 'image'),
  },
  named_by_content: {
    why: 'A list item or an element that is not a widget but gets a ref because a person acts on it (it shows controls on hover, it is draggable) is named by its text, so an agent can tell one from another; Chrome names list items only from aria-label (and calls a draggable element a group).',
    matches: (d) => d.ours !== undefined && d.chrome !== undefined && d.chrome.name === '' && d.ours.name !== '' && (d.ours.role === d.chrome.role || (d.chrome.role === 'group' && d.ours.role === 'generic')),
  },
  text_transform: {
    why: "CSS text-transform: the name keeps the page's own letters; Chrome's shows them as displayed (\"LOWER CASE LINK\"). Match names case-insensitively.",
    matches: (d) => d.ours !== undefined && d.chrome !== undefined && d.ours.role === chromeRoleAsOurs({ role: d.chrome.role, editingHost: false }) && d.ours.name !== d.chrome.name && d.ours.name.toLowerCase() === d.chrome.name.toLowerCase(),
  },
};

interface AxLite {
  role: string;
  name: string;
  ignored: boolean;
  /** The root of a rich-text editing host (not a field's inner editor, not a node inside the host). */
  editingHost: boolean;
  parentRole: string;
}

const normalize = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Our name against Chrome's: equal once whitespace is collapsed; our names are cut at 100 characters with "…". */
export function sameName(ours: string, chrome: string): boolean {
  const a = normalize(ours);
  const b = normalize(chrome);
  if (a === b) return true;
  return a.endsWith('…') && a.length >= 100 && b.startsWith(a.slice(0, -1));
}

export function chromeRoleAsOurs(node: Pick<AxLite, 'role' | 'editingHost'>): string {
  if (node.role === 'generic' && node.editingHost) return ROLE_EQUIVALENTS['generic+editable'] ?? 'textbox';
  return ROLE_EQUIVALENTS[node.role] ?? node.role;
}

interface SnapshotJson {
  tree: { role: string; name?: string; ref?: string; nameFrom?: string; children?: SnapshotJson['tree'] }[];
}

function refsOf(tree: SnapshotJson['tree'], out: (Seen & { ref: string })[] = []): (Seen & { ref: string })[] {
  for (const node of tree) {
    if (node.ref !== undefined) out.push({ ref: node.ref, role: node.role, name: node.name ?? '', ...(node.nameFrom === undefined ? {} : { inferred: true }) });
    if (node.children !== undefined) refsOf(node.children, out);
  }
  return out;
}

/** Runs in the page's main world on a node: why a person cannot see it ('' = they can). Read only. */
const WHY_HIDDEN = `function () {
  const el = this;
  if (!(el instanceof Element)) return 'not an element';
  const select = el.localName === 'option' ? el.closest('select') : null;
  if (select !== null && !select.multiple && select.size <= 1) return 'choice of a closed dropdown';
  if (!el.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true })) return 'not rendered';
  let opacity = 1;
  const root = el.getRootNode();
  if (root.nodeType === 11 && root.host && root.host.shadowRoot !== root && /^(input|select|textarea|video|audio|details|meter|progress)$/.test(root.host.localName)) return 'part of a native control';
  // Up through shadow hosts and frame elements (another realm: no instanceof).
  for (let node = el; node && node.nodeType === 1; node = node.parentElement ?? (node.getRootNode().nodeType === 11 ? node.getRootNode().host : null) ?? node.ownerDocument.defaultView?.frameElement ?? null) {
    opacity *= Number(node.ownerDocument.defaultView.getComputedStyle(node).opacity);
  }
  if (opacity < 0.1) return 'transparent';
  const box = el.getBoundingClientRect();
  if (box.width < 4 || box.height < 4) return 'too small';
  for (let node = el.parentElement; node !== null; node = node.parentElement) {
    const style = getComputedStyle(node);
    const r = node.getBoundingClientRect();
    if (style.overflow !== 'visible' && (r.width < 4 || r.height < 4)) return 'inside a collapsed clip';
    if (style.clip !== 'auto' && style.position === 'absolute') return 'clipped';
  }
  const style = getComputedStyle(el);
  if (style.clipPath !== 'none' && /inset\\(50%/.test(style.clipPath)) return 'clipped';
  if (style.clip !== 'auto' && style.position === 'absolute') return 'clipped';
  const doc = document.scrollingElement ?? document.documentElement;
  if (box.right < -window.scrollX || box.bottom < -window.scrollY || box.left > doc.scrollWidth || box.top > doc.scrollHeight) return 'off-screen';
  // A modal dialog is open and this is behind it: a person cannot reach it until the dialog closes.
  const modal = document.querySelector('dialog:modal') ?? [...document.querySelectorAll('[aria-modal="true"]')].find((d) => /^(dialog|alertdialog)$/.test((d.getAttribute('role') ?? '').trim()) && d.checkVisibility());
  if (modal && !modal.contains(el)) return 'outside an open modal dialog';
  // Nothing in it is drawn where a person can see it: no text, and no image, shape, background or border that is
  // not faded out (an icon-only button whose icon is transparent).
  const draws = (node, opacityAbove) => {
    const s = node.ownerDocument.defaultView.getComputedStyle(node);
    if (s.display === 'none') return false;
    const opacity = opacityAbove * Number(s.opacity);
    if (opacity < 0.1) return false;
    const r = node.getBoundingClientRect();
    const big = r.width >= 4 && r.height >= 4;
    if (big && s.visibility === 'visible' && (/^(img|svg|canvas|video|input|select|textarea|iframe|object|embed)$/.test(node.localName) || s.backgroundImage !== 'none' || !/^(transparent|rgba\\(0, 0, 0, 0\\))$/.test(s.backgroundColor) || parseFloat(s.borderTopWidth) > 0)) return true;
    for (const child of (node.shadowRoot ?? node).childNodes) {
      if (child.nodeType === 3 && child.data.trim() !== '' && s.visibility === 'visible' && parseFloat(s.fontSize) >= 4) return true;
      if (child.nodeType === 1 && draws(child, opacity)) return true;
    }
    return false;
  };
  if (!draws(el, 1)) return 'draws nothing visible';
  return '';
}`;

async function contextsOf(client: CDPSession): Promise<{ id: number; frameId: string; name: string }[]> {
  const found: { id: number; frameId: string; name: string }[] = [];
  client.on('Runtime.executionContextCreated', (event) => {
    const aux = (event.context.auxData ?? {}) as { frameId?: string };
    found.push({ id: event.context.id, frameId: aux.frameId ?? '', name: event.context.name });
  });
  await client.send('Runtime.enable');
  return found.filter((context) => /^chrome-relay:[0-9a-f]{12}$/.test(context.name));
}

/** The backend node id of a ref's element, read from chrome-relay's world (undefined when no world holds it). */
async function backendOf(client: CDPSession, contexts: readonly { id: number }[], ref: string): Promise<number | undefined> {
  for (const context of contexts) {
    const reply = await client.send('Runtime.evaluate', {
      expression: `globalThis.__chromeRelay?.element(${JSON.stringify({ ref })}) ?? null`,
      contextId: context.id,
      objectGroup: 'conformance',
    });
    if (reply.result.subtype !== 'node' || reply.result.objectId === undefined) continue;
    const { node } = await client.send('DOM.describeNode', { objectId: reply.result.objectId });
    return node.backendNodeId;
  }
  return undefined;
}

async function axTrees(client: CDPSession, page: Page): Promise<Map<number, AxLite>> {
  const byNode = new Map<number, AxLite>();
  const frames = page.frames().map((frame) => (frame === page.mainFrame() ? undefined : (frame as unknown as { _id: string })._id));
  for (const frameId of frames) {
    let nodes;
    try {
      ({ nodes } = await client.send('Accessibility.getFullAXTree', frameId === undefined ? {} : { frameId }));
    } catch {
      continue; // An out-of-process frame: not on this session.
    }
    const roleOf = new Map(nodes.map((node) => [node.nodeId, String(node.role?.value ?? '')]));
    for (const node of nodes) {
      if (node.backendDOMNodeId === undefined) continue;
      const property = (name: string): unknown => (node.properties ?? []).find((p) => p.name === name)?.value.value;
      const lite: AxLite = {
        role: String(node.role?.value ?? ''),
        name: String(node.name?.value ?? ''),
        ignored: node.ignored,
        editingHost: property('editable') === 'richtext' && property('focusable') === true,
        parentRole: node.parentId === undefined ? '' : (roleOf.get(node.parentId) ?? ''),
      };
      const known = byNode.get(node.backendDOMNodeId);
      if (known === undefined || (known.ignored && !lite.ignored)) byNode.set(node.backendDOMNodeId, lite);
    }
  }
  return byNode;
}

async function whyHidden(client: CDPSession, backendNodeId: number): Promise<string> {
  try {
    const { object } = await client.send('DOM.resolveNode', { backendNodeId, objectGroup: 'conformance' });
    if (object.objectId === undefined) return 'gone';
    const reply = await client.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: WHY_HIDDEN, returnByValue: true });
    return typeof reply.result.value === 'string' ? reply.result.value : '';
  } catch {
    return 'gone';
  }
}

/** Compare one page (served by the relay's fixture server at `path`). */
export async function conformPage(relay: Relay, path: string): Promise<PageReport> {
  const unique = `${path}${path.includes('?') ? '&' : '?'}conformance=${Date.now().toString(36)}`;
  const nav = await relay.cli('navigate', relay.server.url(unique), '--new-tab');
  if (nav.code !== 0) throw new Error(`navigate ${path}: ${nav.stderr}`);
  const tabId = String((nav.json as { tabId: number }).tabId);
  // A library page draws after its script runs: wait for it as an agent would.
  const ready = READY[path];
  if (ready !== undefined) {
    const drawn = await relay.cli('wait', '--tab', tabId, '--selector', ready);
    if (drawn.code !== 0) throw new Error(`wait for ${ready} on ${path}: ${drawn.stderr}`);
  }
  const page = await relay.page(unique);
  const snap = await relay.cli('snapshot', '--tab', tabId, '--json', '--no-elide');
  if (snap.code !== 0) throw new Error(`snapshot ${path}: ${snap.stderr}`);
  const refs = refsOf((snap.json as SnapshotJson).tree);
  const client = await page.createCDPSession();
  try {
    const contexts = await contextsOf(client);
    const ax = await axTrees(client, page);
    const report: PageReport = { page: path, compared: 0, agreed: 0, differences: [], excluded: [] };
    const reffed = new Set<number>();
    for (const ours of refs) {
      report.compared++;
      const backend = await backendOf(client, contexts, ours.ref);
      const chrome = backend === undefined ? undefined : ax.get(backend);
      if (backend !== undefined) reffed.add(backend);
      const seen: Seen = { role: ours.role, name: ours.name, ...(ours.inferred === true ? { inferred: true } : {}) };
      if (chrome === undefined || chrome.ignored) {
        report.differences.push({ page: path, where: `@${ours.ref}`, ours: seen, ...(chrome === undefined ? {} : { chrome: { role: chrome.role, name: chrome.name } }) });
        continue;
      }
      const role = chromeRoleAsOurs(chrome);
      const namesCount = !NAME_PROHIBITED.has(role) && !NAME_PROHIBITED.has(ours.role);
      if (role === ours.role && (!namesCount || sameName(ours.name, chrome.name))) report.agreed++;
      else report.differences.push({ page: path, where: `@${ours.ref}`, ours: seen, chrome: { role: chrome.role, name: chrome.name } });
    }
    for (const [backend, chrome] of ax) {
      if (chrome.ignored || reffed.has(backend) || !INTERACTIVE.has(chromeRoleAsOurs(chrome))) continue;
      const hidden = await whyHidden(client, backend);
      const difference: Difference = { page: path, where: `${chrome.role} node ${backend}${hidden === '' ? '' : ` (${hidden})`}`, chrome: { role: chrome.role, name: chrome.name } };
      // Not something a person acts on: a control they cannot see, or one part of a native control (the day
      // field of a date input) that the control's own ref covers.
      if (hidden !== '') {
        report.excluded.push(difference);
        continue;
      }
      report.compared++;
      report.differences.push(difference);
      classify(difference, hidden);
    }
    for (const difference of report.differences) if (difference.deliberate === undefined) classify(difference, '');
    return report;
  } finally {
    await client.detach().catch(() => undefined);
    await relay.cli('close', tabId);
  }
}

function classify(difference: Difference, hidden: string): void {
  for (const [key, rule] of Object.entries(DELIBERATE)) {
    if (rule.matches(difference, hidden)) {
      difference.deliberate = key;
      return;
    }
  }
}

export interface Totals {
  compared: number;
  agreed: number;
  /** Differences that are names Chrome leaves empty and we give on purpose (FALLBACK_NAMES: left out of the rate). */
  inferred: number;
  rate: number;
  unexplained: Difference[];
}

/** Deliberate differences that are names where Chrome has none (fallback names): reported, not counted in the rate. */
const FALLBACK_NAMES: ReadonlySet<string> = new Set(['inferred_name', 'named_by_content']);

export function totals(reports: readonly PageReport[]): Totals {
  const compared = reports.reduce((sum, r) => sum + r.compared, 0);
  const agreed = reports.reduce((sum, r) => sum + r.agreed, 0);
  // A name Chrome leaves empty and we give is a difference by design: the bar holds for everything else.
  const inferred = reports.reduce((sum, r) => sum + r.differences.filter((d) => d.deliberate !== undefined && FALLBACK_NAMES.has(d.deliberate)).length, 0);
  const judged = compared - inferred;
  return { compared, agreed, inferred, rate: judged === 0 ? 1 : agreed / judged, unexplained: reports.flatMap((r) => r.differences.filter((d) => d.deliberate === undefined)) };
}

/** Pages compared: every e2e fixture that settles on load, and the tricky pages written for this. */
export const CONFORMANCE_PAGES: readonly string[] = [
  'button.html',
  'churn.html',
  'colors.html',
  'coords.html',
  'delivery-child.html',
  'delivery-down.html',
  'delivery-over.html',
  'delivery-swap.html',
  'dialogs.html',
  'editor.html',
  'fidelity-act.html',
  'fidelity-names.html',
  'fidelity-readers.html',
  'fidelity-rerender.html',
  'form.html',
  'frame-child.html',
  'frame-parent.html',
  'hostile.html',
  'invisible.html',
  'keys.html',
  'leave.html',
  'nav-a.html',
  'nav-b.html',
  'observe.html',
  'other.html',
  'overlay.html',
  'pointer.html',
  'reads.html',
  'recorder.html',
  'scroller.html',
  'shadow.html',
  'snapshot-options.html',
  'spa.html',
  'todo.html',
  'twins.html',
  'wait.html',
  'busy.html',
  'conformance-slots.html',
  'conformance-labels.html',
  'conformance-css.html',
  'conformance-hidden.html',
  'conformance-tables.html',
  'conformance-forms.html',
  'conformance-svg.html',
  'controls-icons.html',
  'controls-svg.html',
  'controls-sortable.html',
  'controls-form.html',
  'controls-text.html',
  'controls-verbs.html',
  'controls-route.html',
  'controls-modal.html',
  'controls-aria.html',
  'text-structure.html',
  // Real component libraries (e2e/libs/*.tsx, bundled from npm).
  'libs/react-select-chips.html',
  'libs/radix-form.html',
  'libs/shoelace.html',
  'libs/mui-slider.html',
  'libs/tiptap.html',
  'libs/codemirror.html',
].map((name) => `/${name}`);

/** Pages that draw after load, and what shows they have: the comparison waits for it. */
const READY: Readonly<Record<string, string>> = {
  '/libs/react-select-chips.html': '[aria-label="Remove Peach"] svg',
  '/libs/radix-form.html': '[role=slider]',
  '/libs/shoelace.html': 'svg[part="svg"]',
  '/libs/mui-slider.html': '.MuiSlider-thumb',
  '/libs/tiptap.html': '.ProseMirror',
  '/libs/codemirror.html': '.cm-line',
};

/** Left out, and why (a page that does not settle, or that only makes sense with a parameter). */
export const LEFT_OUT: Readonly<Record<string, string>> = {
  'delivery-jump.html': 'its target moves every frame on purpose (delivery e2e); the two reads cannot see the same layout',
  'delivery-fresh.html': 'needs a cross-origin child URL as a parameter; its frames are covered by frame-parent.html',
  'delivery-scroll.html': 'needs a cross-origin child URL as a parameter; its frames are covered by frame-parent.html',
  'download.html': 'a download, not a page',
  'frame-next.html': 'a three-line navigation target',
};

export function renderReport(reports: readonly PageReport[], when: string): string {
  const sum = totals(reports);
  const lines: string[] = [
    '# Snapshot conformance with Chrome\'s accessibility tree',
    '',
    `<!-- generated by \`node scripts/run-ts.mjs scripts/snapshot-conformance.ts\` (${when}); do not edit -->`,
    '',
    'Each element chrome-relay gives a ref, and each element Chrome gives an interactive role, is compared with',
    "Chrome's own node for the same DOM node (`Accessibility.getFullAXTree`; refs mapped to DOM nodes exactly, see",
    '`e2e/conformance.ts`). It agrees when the roles are the same (Chrome\'s internal role names mapped: ' +
      Object.entries(ROLE_EQUIVALENTS)
        .map(([chrome, ours]) => `${chrome} → ${ours}`)
        .join(', ') +
      ') and so are the names — only the role where ARIA prohibits a name (generic containers: Chrome reports none;',
    'chrome-relay names a clickable one by its text so an agent can tell it apart).',
    '',
    `**Agreement: ${sum.agreed} of ${sum.compared - sum.inferred} elements, ${(sum.rate * 100).toFixed(1)} %** (the e2e fails under 98 %, and on any difference not listed as deliberate below), not counting the ${sum.inferred} elements Chrome leaves nameless that chrome-relay names on purpose (\`inferred_name\` and \`named_by_content\` below); counting them, ${sum.agreed} of ${sum.compared}, ${((sum.agreed / Math.max(1, sum.compared)) * 100).toFixed(1)} %.`,
    '',
    '| page | compared | agreed | differences |',
    '|---|---:|---:|---:|',
    ...reports.map((r) => `| ${r.page} | ${r.compared} | ${r.agreed} | ${r.differences.length} |`),
    '',
    '## Differences',
    '',
  ];
  const differences = reports.flatMap((r) => r.differences);
  if (differences.length === 0) lines.push('None.');
  for (const [key, rule] of Object.entries(DELIBERATE)) {
    const these = differences.filter((d) => d.deliberate === key);
    if (these.length === 0) continue;
    lines.push(`### ${key} (${these.length})`, '', rule.why, '');
    for (const d of these) lines.push(`- ${d.page} ${d.where}: ${describe(d)}`);
    lines.push('');
  }
  if (sum.unexplained.length > 0) {
    lines.push(`### unexplained (${sum.unexplained.length})`, '');
    for (const d of sum.unexplained) lines.push(`- ${d.page} ${d.where}: ${describe(d)}`);
    lines.push('');
  }
  const excluded = reports.flatMap((r) => r.excluded);
  lines.push(
    `## Not compared (${excluded.length})`,
    '',
    "Chrome's interactive nodes that are not something a person acts on in the page: controls a person cannot see (transparent, clipped away, off-screen, too small, in a hidden frame, or drawing nothing visible: an icon-only button whose icon is faded out) — the snapshot leaves them out, refs included, so a page cannot plant an invisible button for the agent (docs/refs.md); controls behind an open modal dialog, which a person cannot reach until it closes; the parts of a native control (a date input's day, month and year fields), which the control's one ref covers (`fill` sets the whole date); and the choices of a closed native dropdown, which draw only in the browser's popup where no page pointer event reaches — the snapshot lists them under the dropdown, and `select @ref \"Peru\"` picks one.",
    '',
    ...excluded.map((d) => `- ${d.page} ${d.where}: Chrome ${d.chrome === undefined ? 'none' : `${d.chrome.role} ${quote(d.chrome.name)}`}`),
    '',
  );
  lines.push('## Pages left out', '', ...Object.entries(LEFT_OUT).map(([page, why]) => `- /${page}: ${why}`), '');
  return lines.join('\n');
}

function describe(d: Difference): string {
  // Page strings (a hostile fixture's names among them) are quoted the way the snapshot quotes them.
  const side = (seen: Seen | undefined): string => (seen === undefined ? 'none' : `${seen.role} ${quote(seen.name)}`);
  return `ours ${side(d.ours)}, Chrome ${side(d.chrome)}`;
}
