/**
 * `download --dir DIR`: arm the tab's downloads (pageState/downloads.ts explains why the browser
 * cannot be told the directory and the CLI moves the file instead). Arming records the directory
 * for the tab; the dispatcher has already made sure the tab reports its downloads (Page enabled).
 */
import { armDir } from '../pageState/downloads.js';
import { callTab } from '../context/call.js';
import { defineTool } from './defineTool.js';

export const downloadTool = defineTool({
  name: 'download',
  uses: [],
  async handle(params, ctx) {
    const tabId = callTab(ctx);
    await armDir(ctx, tabId, params.dir);
    return { tabId, dir: params.dir, armed: true as const };
  },
});
