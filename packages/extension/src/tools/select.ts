/**
 * `select @ref option…`: choose options of a native <select> by value or visible text. All or
 * nothing: an unknown or disabled option changes nothing and names the available ones.
 */

import { defineTool } from './defineTool.js';
import { openRef, readRef, refusedError } from '../actions/refAction.js';
import { REF_SERVICES } from '../actions/toolContext.js';
export const selectTool = defineTool({
  name: 'select',
  uses: REF_SERVICES,
  async handle(params, ctx) {
    const site = await openRef(ctx, params.ref);
    const outcome = await readRef(ctx, site, 'select', 'select', { ref: params.ref, values: params.values });
    if (outcome.status === 'no_option') {
      throw refusedError(
        'select',
        params.ref,
        site.tabId,
        `it has no option with value or text ${JSON.stringify(outcome.missing)} (options: ${outcome.available.map((o) => JSON.stringify(o)).join(', ')})`,
        { field: 'values', available: outcome.available },
      );
    }
    return { tabId: site.tabId, ref: params.ref, selected: outcome.selected, healed: outcome.healed };
  },
});

