/**
 * `get title|url|text|value|attr|count`: one small read without a snapshot.
 *
 * title and url come from the tab's current history entry (browser side: includes pushState
 * URLs). Element reads run in an isolated world (pageState/isolatedWorld.ts), so page scripts
 * cannot alter what querySelectorAll, innerText or value return. A selector matches inside open
 * shadow roots too (each tree scope is searched, as the snapshot sees them); `--frame @ref` reads
 * inside that iframe instead (title and url are then the frame document's).
 *
 * Strict like a locator: text/value/attr need exactly one match — zero is element_not_found,
 * several is invalid_arguments on the selector (say which one you mean; `get count` tells how
 * many there are). count never fails on zero. An absent attribute reads as null; value on an
 * element that has none (a <div>) is invalid_arguments. A ref instead of --selector reads that element (resolved and
 * healed like any ref), whole: the snapshot cuts long strings, this is how an agent reads one all.
 */
import { reasonedError, RelayError, type ToolParams } from '@chrome-relay/protocol';
import { worlds as defaultWorlds } from '../page/worlds.js';
import { callInPage, type FrameScope } from '../pageState/isolatedWorld.js';
import { currentEntry } from '../pageState/readiness.js';
import { refRegistry } from '../refs/index.js';
import { resolveTab } from '../targets.js';
import { defineTool } from './defineTool.js';
import { resolveFrameRef } from './frameRef.js';
import { callSite, openRef, refusedError, unlessStale, type RefDeps } from './refAction.js';
import type { ReadArgs } from '../injected/types.js';

type GetWhat = ToolParams<'get'>['what'];

export type ReadResult =
  | { status: 'ok'; value: string | number | null }
  | { status: 'bad_selector'; message: string }
  | { status: 'none' }
  | { status: 'many'; count: number }
  | { status: 'no_value'; tag: string };

/** Runs in the page (isolated world). Self-contained. */
export function readElement(what: string, selector: string, name: string): ReadResult {
  if (what === 'title') return { status: 'ok', value: document.title };
  if (what === 'url') return { status: 'ok', value: location.href };
  // Matches in the document and in every open shadow root (each scope searched on its own), in tree order.
  const matches: Element[] = [];
  try {
    const search = (root: Document | ShadowRoot): void => {
      for (const element of root.querySelectorAll('*')) {
        if (element.matches(selector)) matches.push(element);
        if (element.shadowRoot !== null) search(element.shadowRoot);
      }
    };
    document.querySelector(selector);
    search(document);
  } catch (error) {
    return { status: 'bad_selector', message: error instanceof Error ? error.message : String(error) };
  }
  if (what === 'count') return { status: 'ok', value: matches.length };
  if (matches.length === 0) return { status: 'none' };
  if (matches.length > 1) return { status: 'many', count: matches.length };
  const el = matches[0] as HTMLElement;
  if (what === 'attr') return { status: 'ok', value: el.getAttribute(name) };
  if (what === 'value') {
    const tag = el.tagName;
    if (tag !== 'INPUT' && tag !== 'TEXTAREA' && tag !== 'SELECT' && tag !== 'OPTION' && tag !== 'BUTTON' && tag !== 'OUTPUT') {
      return { status: 'no_value', tag: tag.toLowerCase() };
    }
    const input = el as HTMLInputElement;
    // A password (or one-time code) is the person's secret: shown as the snapshot shows it (injected/actions.ts isSecretField).
    const secret = tag === 'INPUT' && (input.type === 'password' || /\b(current-password|new-password|one-time-code)\b/.test(input.autocomplete));
    return { status: 'ok', value: secret && input.value !== '' ? '••••••' : input.value };
  }
  // innerText is the rendered text (what a person sees); SVG and other non-HTML elements lack it.
  return { status: 'ok', value: typeof el.innerText === 'string' ? el.innerText : (el.textContent ?? '') };
}

function invalidSelector(what: GetWhat, selector: string, why: string): RelayError {
  return new RelayError('invalid_arguments', `Invalid arguments for get: selector ${why}.`, {
    tool: 'get',
    phase: 'validate',
    details: { field: 'selector', selector, what },
  });
}

export function createGetTool(deps: RefDeps) {
  return defineTool({
    name: 'get',
    async handle(params, ctx) {
      if (params.ref !== undefined && (params.what === 'text' || params.what === 'value' || params.what === 'attr')) {
        const site = await openRef(ctx, deps, params.ref, params.tab);
        const args: ReadArgs = { ref: params.ref, what: params.what };
        if (params.name !== undefined) args.name = params.name;
        const read = unlessStale(site, await callSite(ctx, deps, site, 'read', args));
        if (read.status === 'no_value') throw refusedError('get', params.ref, site.tabId, `it is a <${read.tag}>, which has no value (use get text)`);
        return { tabId: site.tabId, what: params.what, value: read.value };
      }
      let tabId: number;
      let where: number | FrameScope;
      if (params.frame !== undefined) {
        const frame = await resolveFrameRef(ctx, deps, 'get', params.frame, params.tab);
        tabId = frame.tabId;
        where = frame.scope;
      } else {
        tabId = await resolveTab(params.tab, ctx);
        where = tabId;
        if (params.what === 'title' || params.what === 'url') {
          const entry = await currentEntry(ctx, tabId);
          return { tabId, what: params.what, value: params.what === 'title' ? entry.title : entry.url };
        }
      }
      // The schema guarantees a selector (or a ref) for element reads, and a name for attr.
      const selector = params.selector ?? '';
      const read = await callInPage(ctx, where, readElement, params.what, selector, params.name ?? '');
      switch (read.status) {
        case 'ok':
          return { tabId, what: params.what, value: read.value };
        case 'bad_selector':
          throw invalidSelector(params.what, selector, `"${selector}" is not valid CSS: ${read.message}`);
        case 'many':
          throw invalidSelector(params.what, selector, `"${selector}" matches ${read.count} elements; make it match exactly one (e.g. add an id, attribute or :nth-of-type)`);
        case 'no_value':
          throw invalidSelector(params.what, selector, `"${selector}" is a <${read.tag}>, which has no value (use get text, or select an input, textarea or select)`);
        case 'none':
          throw reasonedError('element_not_found', 'no_match', `No element in tab ${tabId}${params.frame === undefined ? '' : ` (frame @${params.frame})`} matches "${selector}"; check it against a fresh \`chrome-relay snapshot\`, or \`chrome-relay wait --selector\` for it.`, {
            tool: 'get',
            phase: 'resolve',
            details: { selector, tab: tabId, ...(params.frame === undefined ? {} : { frame: params.frame }) },
          });
      }
    },
  });
}

export const getTool = createGetTool({ registry: refRegistry, worlds: defaultWorlds });
