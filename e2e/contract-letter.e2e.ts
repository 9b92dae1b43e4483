/**
 * The documented contract to the letter, through the built CLI: click_intercepted hands over the covering element as
 * the reference shapes it (nodeName, backendNodeId) with a ref usable in the next call and shown by the next
 * snapshot; a click that landed says `clicked: true`; `js` and `type` answer codes and reasons that fit (a value JSON
 * cannot carry, a promise that never settles, nothing focused); a block names the command the agent typed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startRelay, type Relay } from './harness.js';
import { allRefs, open, read, refFor, snapshot } from './helpers.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

interface Identity {
  nodeName: string;
  backendNodeId: number;
  ref: string;
  id?: string;
  name: string;
}

describe('the covering element is identified', () => {
  it('click_intercepted gives its nodeName, backendNodeId and a ref usable at once, which the next snapshot shows', async () => {
    const tab = await open(relay, '/cover.html');
    const page = await relay.page(tab.path);
    const first = await snapshot(relay, tab.tabId);
    const target = refFor(first, /button "Buy now"/);
    const refused = await relay.cli('click', target);
    expect(refused.error, refused.stderr).toMatchObject({ code: 'click_intercepted', retryable: false, details: { when: 'before_pointer', interceptor: { nodeName: 'DIV', id: 'banner' } } });
    const interceptor = refused.error?.details.interceptor as Identity;
    // The banner as a whole (what to dismiss): not the paragraph of text the point fell on, nor the app root holding it.
    expect(interceptor.name).toMatch(/^We use cookies/);
    // A new ref, never issued before: the counter is browser-wide, so it is above every ref so far.
    expect(interceptor.ref).toMatch(/^e\d+$/);
    expect(Number(interceptor.ref.slice(1))).toBeGreaterThan(Math.max(...allRefs(first)));
    expect(refused.error?.message).toContain(`\`chrome-relay snapshot -s @${interceptor.ref}\``);

    // The node id is the banner's, as DevTools knows it (observation only).
    const cdp = await page.createCDPSession();
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#banner' });
    const { node } = await cdp.send('DOM.describeNode', { nodeId });
    await cdp.detach();
    expect(interceptor.backendNodeId).toBe(node.backendNodeId);

    // Usable in the very next call, with no --tab (a ref carries its tab): the banner and what closes it.
    const scoped = await relay.cli('snapshot', '-s', `@${interceptor.ref}`);
    expect(scoped.code, scoped.stderr).toBe(0);
    expect(scoped.stdout).toMatch(/button "Accept all" \[ref=e\d+\]/);
    expect(scoped.stdout).not.toContain('Buy now');
    // And found in a full snapshot of the tab, on the banner's line, with the rest of the page as it was.
    const again = await snapshot(relay, tab.tabId);
    expect(again.split('\n').find((line) => line.includes(`[ref=${interceptor.ref}]`))).toMatch(/"We use cookies/);
    expect(again).toMatch(/heading "Shop"/);
    expect(again).toMatch(/textbox "Search" \[ref=e\d+\]/);

    // A coordinate click where the target shows lands on the banner, and its result names it by the same ref.
    const point = refused.error?.details as { x: number; y: number };
    const byPoint = await relay.cli('click', '--x', String(point.x), '--y', String(point.y), '--tab', String(tab.tabId));
    expect(byPoint.code, byPoint.stderr).toBe(0);
    expect(byPoint.json).toMatchObject({ clicked: true, target: { id: 'banner', ref: interceptor.ref } });

    // Dismissed through its own button, the target takes the click: clicked, exactly once.
    expect((await relay.cli('click', refFor(scoped.stdout, /button "Accept all"/))).code).toBe(0);
    const clicked = await relay.cli('click', target);
    expect(clicked.code, clicked.stderr).toBe(0);
    // A program's line leaves out the false flags that only say nothing out of the ordinary happened.
    expect(clicked.json).toMatchObject({ clicked: true, ref: target.slice(1) });
    expect(clicked.json).not.toHaveProperty('healed');
    expect(clicked.json).not.toHaveProperty('navigated');
    expect(await read(page, 'window.clicks')).toBe(1);
  });
});

describe('codes and reasons that fit', () => {
  it('js: a value JSON cannot carry is invalid_arguments on the expression, which ran', async () => {
    const tab = await open(relay, '/cover.html');
    const page = await relay.page(tab.path);
    const node = await relay.cli('js', "window.ranNode = 1; document.getElementById('target')", '--tab', String(tab.tabId));
    expect(node.error, node.stderr).toMatchObject({ code: 'invalid_arguments', tool: 'js', retryable: false, details: { field: 'expression', path: 'result', mayHaveActed: true } });
    expect(node.error?.message).toMatch(/ran, but its value cannot be returned as JSON: result is a DOM node/);
    expect(await read(page, 'window.ranNode')).toBe(1);
  });

  it('js: a promise that never settles is timeout promise_pending (it ran), not a busy page', async () => {
    const tab = await open(relay, '/cover.html');
    const page = await relay.page(tab.path);
    const pending = await relay.cli('--timeout', '4000', 'js', 'window.ranPending = 1; new Promise(() => {})', '--tab', String(tab.tabId));
    expect(pending.error, pending.stderr).toMatchObject({ code: 'timeout', tool: 'js', retryable: false, details: { reason: 'promise_pending', mayHaveActed: true } });
    expect(pending.error?.message).toMatch(/returned a promise that had not settled/);
    expect(await read(page, 'window.ranPending')).toBe(1);
  });

  it('type with nothing focused is element_not_found (no_editable_focus), not retryable, and types nothing', async () => {
    const tab = await open(relay, '/cover.html');
    const page = await relay.page(tab.path);
    const typed = await relay.cli('type', 'hello', '--tab', String(tab.tabId));
    expect(typed.error, typed.stderr).toMatchObject({ code: 'element_not_found', retryable: false, details: { reason: 'no_editable_focus' } });
    expect(typed.error?.message).toContain('`chrome-relay type -s @ref "text"`');
    expect(await read(page, "document.getElementById('field').value")).toBe('');
    // The same call again finds the same nothing: retryable false is the truth.
    expect((await relay.cli('type', 'hello', '--tab', String(tab.tabId))).error?.details.reason).toBe('no_editable_focus');
  });
});

describe('a block names what the agent typed', () => {
  it('the command words in tool and in the message; the protocol name in details.protocolTool', async () => {
    const env = { ...relay.env, CHROME_RELAY_HOME: `${relay.root}/no-browser-home` };
    const unknown = await runCli(['lease', 'release', '--bogus'], env);
    expect(unknown.error).toMatchObject({ code: 'invalid_arguments', tool: 'lease release', details: { field: 'bogus', protocolTool: 'lease_release' } });
    expect(unknown.error?.message).toContain('(see `chrome-relay lease release --help`)');
    expect(unknown.stderr).not.toMatch(/lease_release --help/);
    const stop = await runCli(['record', 'stop'], env);
    expect(stop.error).toMatchObject({ code: 'invalid_arguments', tool: 'record stop', details: { protocolTool: 'record_stop' } });
    // One word commands are their own protocol name: nothing added.
    const tabs = await runCli(['tabs', '--bogus'], env);
    expect(tabs.error?.tool).toBe('tabs');
    expect(tabs.error?.details.protocolTool).toBeUndefined();
    // A call that reached the browser: the extension's own words name the command too.
    const har = await relay.cli('network', 'har', '--out', `${relay.root}/missing-dir/x.har`);
    expect(har.error).toMatchObject({ tool: 'network har', details: { protocolTool: 'network_har', field: 'out' } });
  });
});
