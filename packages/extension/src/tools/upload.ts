/**
 * `upload @ref files…`: put files on an <input type=file> with DOM.setFileInputFiles — no OS
 * dialog, hidden inputs included (the element is addressed through our world, not clicked).
 * `--via @button`: for pages whose input is created or opened only by clicking (a styled button):
 * arm Page.setInterceptFileChooserDialog, click the ref (hit-tested, trusted: a file chooser needs a
 * user gesture), and answer the chooser Chrome reports (Page.fileChooserOpened) with the files.
 *
 * Paths are checked by the CLI (it shares the filesystem with the browser) and sent absolute.
 */
import { RelayError, type ToolResult } from '@chrome-relay/protocol';
import type Protocol from 'devtools-protocol';
import { pageElementHandle } from '../page/pageCall.js';
import { worldTarget } from '../page/worlds.js';
import { staleRefError } from '../refs/refTarget.js';
import { defineTool } from './defineTool.js';
import { POINTER_SERVICES, type PointerContext } from '../actions/toolContext.js';
import { click, pointerAction } from '../actions/pointerAction.js';
import { openRef, readRef, refusedError, type RefSite } from '../actions/refAction.js';

/** How long after the click a file chooser may take to open. */
export const CHOOSER_WAIT_MS = 3000;
const OBJECT_GROUP = 'chrome-relay-upload';

function tooMany(site: RefSite, count: number): RelayError {
  return refusedError('upload', site.ref, site.tabId, `it takes one file (no "multiple" attribute), ${count} were given`, { field: 'files' });
}

async function uploadToInput(ctx: PointerContext, site: RefSite, files: string[]): Promise<boolean> {
  const check = await readRef(ctx, site, 'upload', 'fileInput', { ref: site.ref });
  if (!check.multiple && files.length > 1) throw tooMany(site, files.length);
  const objectId = await pageElementHandle(ctx, site.world, site.ref, OBJECT_GROUP);
  try {
    if (objectId === undefined) throw staleRefError(site.ref, 'vanished', site.tabId);
    // Chrome fires input and change on the element itself, as for a person's choice.
    await ctx.cdp.send(worldTarget(site.world), 'DOM.setFileInputFiles', { files, objectId });
  } finally {
    await ctx.cdp.send(worldTarget(site.world), 'Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch(() => undefined);
  }
  return check.healed;
}

/** The next file chooser the tab opens, heard from now on; `opened()` waits for it at most CHOOSER_WAIT_MS from when it is asked (after the click). */
function nextFileChooser(ctx: PointerContext, tabId: number): { opened(): Promise<Protocol.Page.FileChooserOpenedEvent | undefined>; stop(): void } {
  let finish: (value: Protocol.Page.FileChooserOpenedEvent | undefined) => void = () => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const chosen = new Promise<Protocol.Page.FileChooserOpenedEvent | undefined>((resolve) => {
    const unsubscribe = ctx.cdp.on((event) => {
      if (event.tabId === tabId && event.sessionId === undefined && event.method === 'Page.fileChooserOpened') {
        finish(event.params as Protocol.Page.FileChooserOpenedEvent);
      }
    });
    finish = (value) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(value);
    };
  });
  return {
    opened: () => {
      timer = setTimeout(() => finish(undefined), Math.max(0, Math.min(CHOOSER_WAIT_MS, ctx.deadline - Date.now())));
      return chosen;
    },
    stop: () => finish(undefined),
  };
}

async function uploadViaChooser(ctx: PointerContext, site: RefSite, files: string[]): Promise<boolean> {
  // Intercepted before the click is aimed: a chooser the click opens is answered by us, never shown to the person.
  await ctx.cdp.send(site.tabId, 'Page.setInterceptFileChooserDialog', { enabled: true });
  const chooser = nextFileChooser(ctx, site.tabId);
  let healed = false;
  try {
    ({ healed } = await pointerAction(ctx, { ref: site }, click('upload')));
    const opened = await chooser.opened();
    if (opened === undefined) {
      throw refusedError('upload', site.ref, site.tabId, `clicking it opened no file chooser within ${CHOOSER_WAIT_MS} ms (give the <input type=file> ref itself, without --via)`);
    }
    if (opened.mode === 'selectSingle' && files.length > 1) throw tooMany(site, files.length);
    if (opened.backendNodeId === undefined) {
      throw refusedError('upload', site.ref, site.tabId, 'the file chooser it opened belongs to no <input type=file> chrome-relay can fill');
    }
    await ctx.cdp.send(site.tabId, 'DOM.setFileInputFiles', { files, backendNodeId: opened.backendNodeId });
  } finally {
    chooser.stop();
    await ctx.cdp.send(site.tabId, 'Page.setInterceptFileChooserDialog', { enabled: false }).catch(() => undefined);
  }
  return healed;
}

export const uploadTool = defineTool({
  name: 'upload',
  uses: POINTER_SERVICES,
  async handle(params, ctx): Promise<ToolResult<'upload'>> {
    const bad = params.files.find((file) => !file.startsWith('/'));
    if (bad !== undefined) {
      throw new RelayError('invalid_arguments', `Invalid arguments for upload: files must be absolute paths, got ${JSON.stringify(bad)}.`, {
        phase: 'validate',
        details: { field: 'files', value: bad },
      });
    }
    const site = await openRef(ctx, params.ref);
    const healed = params.via ? await uploadViaChooser(ctx, site, params.files) : await uploadToInput(ctx, site, params.files);
    return { tabId: site.tabId, ref: params.ref, files: params.files, via: params.via ? 'chooser' : 'input', healed };
  },
});

