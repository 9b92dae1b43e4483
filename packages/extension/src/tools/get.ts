/**
 * `get title|url|text|value|attr|count`: one small read without a snapshot.
 *
 * title and url come from the tab's current history entry (browser side: includes pushState
 * URLs). Element reads are a read of the page API (injected/reads.ts) in chrome-relay's isolated world, so page
 * scripts cannot alter what querySelectorAll, innerText or value return. A selector matches inside open
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
import { callTab } from '../context/call.js';
import { callRead, type ReadSite } from '../page/pageCall.js';
import { currentEntry } from '../pageState/readiness.js';
import { defineTool } from './defineTool.js';
import { resolveFrameRef } from '../actions/frameRef.js';
import { openRef, readRef, refusedError } from '../actions/refAction.js';
import type { ReadArgs } from '../injected/types.js';
import { selectorRefused } from '../page/selectorRefused.js';
import { REF_SERVICES } from '../actions/toolContext.js';

type GetWhat = ToolParams<'get'>['what'];

function invalidSelector(what: GetWhat, selector: string, why: string): RelayError {
  return new RelayError('invalid_arguments', `Invalid arguments for get: selector ${why}.`, {
    tool: 'get',
    phase: 'validate',
    details: { field: 'selector', selector, what },
  });
}

export const getTool = defineTool({
  name: 'get',
  uses: REF_SERVICES,
  async handle(params, ctx) {
    if (params.ref !== undefined && (params.what === 'text' || params.what === 'value' || params.what === 'attr')) {
      const site = await openRef(ctx, params.ref);
      const args: ReadArgs = { ref: params.ref, what: params.what };
      if (params.name !== undefined) args.name = params.name;
      const read = await readRef(ctx, site, 'get', 'read', args);
      if (read.status === 'no_value') throw refusedError('get', params.ref, site.tabId, `it is a <${read.tag}>, which has no value (use get text)`);
      return { tabId: site.tabId, what: params.what, value: read.value };
    }
    let tabId: number;
    let where: ReadSite;
    if (params.frame !== undefined) {
      const frame = await resolveFrameRef(ctx, 'get', params.frame);
      tabId = frame.tabId;
      where = frame.reads;
    } else {
      tabId = callTab(ctx);
      where = tabId;
      if (params.what === 'title' || params.what === 'url') {
        const entry = await currentEntry(ctx, tabId);
        return { tabId, what: params.what, value: params.what === 'title' ? entry.title : entry.url };
      }
    }
    // The schema guarantees a selector (or a ref) for element reads, and a name for attr.
    const selector = params.selector ?? '';
    const read = await callRead(ctx, where, 'readElement', { what: params.what, selector, name: params.name ?? '' });
    switch (read.status) {
      case 'ok':
        return { tabId, what: params.what, value: read.value };
      case 'bad_selector':
      case 'secret_selector':
        throw selectorRefused('get', 'selector', selector, read, { what: params.what });
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

