/**
 * The real CLI → native host → extension → CDP path. Every assertion about the page reads the page's
 * own state (window.clicks etc.), never chrome-relay's claim.
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startRelay, until, type Relay } from './harness.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

interface NavigateResult { tabId: number; url: string; title: string; ready: boolean; newTab: boolean }
interface TabsResult { windows: { id: number; tabs: { id: number; url: string; title: string }[] }[] }

let opened = 0;
/** Open a fixture in a new tab under a unique URL, so the observer finds exactly this tab. */
async function open(path: string): Promise<NavigateResult & { path: string }> {
  const unique = `${path}${path.includes('?') ? '&' : '?'}n=${++opened}`;
  const nav = await relay.cli('navigate', relay.server.url(unique), '--new-tab');
  expect(nav.code, nav.stderr).toBe(0);
  return { ...(nav.json as NavigateResult), path: unique };
}

function refFor(snapshot: string, pattern: RegExp): string {
  const line = snapshot.split('\n').find((l) => pattern.test(l));
  const ref = line && /\[ref=(e\d+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ref for ${pattern} in:\n${snapshot}`);
  return `@${ref}`;
}

describe('walking skeleton', () => {
  it('navigate opens a background tab and tabs lists it', async () => {
    const nav = await open('/button.html');
    expect(nav).toMatchObject({ ready: true, newTab: true, title: 'Button fixture' });
    const tabs = await relay.cli('tabs', '--json');
    expect(tabs.code).toBe(0);
    const all = (tabs.json as TabsResult).windows.flatMap((w) => w.tabs);
    expect(all.find((t) => t.id === nav.tabId)).toMatchObject({ url: relay.server.url(nav.path), title: 'Button fixture' });
  });

  it('snapshot shows the button with a ref, and click @ref changes the page', async () => {
    const nav = await open('/button.html');
    const snap = await relay.cli('snapshot', '--tab', String(nav.tabId));
    expect(snap.code, snap.stderr).toBe(0);
    expect(snap.stdout).toMatch(/^- button "Increment" \[ref=e\d+\]$/m);
    expect(snap.stdout).toMatch(/- heading "Counter" \[level=1\]/);
    const ref = refFor(snap.stdout, /button "Increment"/);

    const page = await relay.page(nav.path);
    const before = await page.evaluate(() => (window as unknown as { clicks: number }).clicks);
    const click = await relay.cli('click', ref);
    expect(click.code, click.stderr).toBe(0);
    expect(click.json).toMatchObject({ tabId: nav.tabId, ref: ref.slice(1) });
    expect(click.json).not.toHaveProperty('navigated');
    await until(async () => (await page.evaluate(() => (window as unknown as { clicks: number }).clicks)) === before + 1, 5000, 'page click counter');
    // Trusted mouse events, not element.click(): the page sees isTrusted and pointerType "mouse".
    expect(await page.evaluate(() => (window as unknown as { trusted: boolean[] }).trusted.at(-1))).toBe(true);

    const snapJson = await relay.cli('snapshot', '--tab', String(nav.tabId), '--json');
    expect(JSON.stringify(snapJson.json)).toContain('Clicked 1');
  });

  it('clicks at viewport coordinates', async () => {
    const nav = await open('/coords.html');
    const click = await relay.cli('click', '--x', '150', '--y', '130', '--tab', String(nav.tabId));
    expect(click.code, click.stderr).toBe(0);
    const page = await relay.page(nav.path);
    const hits = await until(async () => {
      const h = await page.evaluate(() => (window as unknown as { hits: { x: number; y: number; trusted: boolean }[] }).hits);
      return h.length ? h : null;
    }, 5000, 'pad click');
    expect(hits).toEqual([{ x: 150, y: 130, trusted: true }]);
    // A click outside the pad must not register on it.
    await relay.cli('click', '--x', '20', '--y', '20', '--tab', String(nav.tabId));
    expect(await page.evaluate(() => (window as unknown as { hits: unknown[] }).hits.length)).toBe(1);
  });

  it('an unknown ref fails with a closed code in the exact stderr format', async () => {
    await open('/button.html');
    const result = await relay.cli('click', '@e987654321');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^chrome-relay: stale_ref: .*snapshot/);
    const block = JSON.parse(lines.at(-1) ?? '') as { relayError: Record<string, unknown> };
    expect(Object.keys(block.relayError).sort()).toEqual(['code', 'details', 'message', 'phase', 'retryable', 'tool']);
    expect(block.relayError).toMatchObject({ code: 'stale_ref', tool: 'click', retryable: false });
  });

  it('bad arguments are invalid_arguments naming the field, before anything is sent', async () => {
    const noTarget = await relay.cli('click');
    expect(noTarget.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'ref' } });
    const badTab = await relay.cli('snapshot', '--tab', 'abc');
    expect(badTab.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'tab' } });
    const badRef = await relay.cli('click', 'button');
    expect(badRef.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'ref' } });
    const unknownOption = await relay.cli('tabs', '--bogus');
    expect(unknownOption.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'bogus' } });
    // Exactly the contract on stderr: our human line first (no stray commander "error:" line), then the block.
    expect(unknownOption.stderr.split('\n')[0]).toMatch(/^chrome-relay: invalid_arguments: unknown option '--bogus'/);
    expect(unknownOption.stderr.trimEnd().split('\n')).toHaveLength(2);
    const missingTab = await relay.cli('snapshot', '--tab', '999999');
    expect(missingTab.error).toMatchObject({ code: 'target_not_found' });
  });

  it('doctor is healthy on the launched profile', async () => {
    const doctor = await relay.cli('doctor', '--profile', relay.profile, '--json');
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.json).toMatchObject({ healthy: true });
  });

  it('with no browser running the CLI answers extension_not_connected naming launch/doctor', async () => {
    const emptyHome = mkdtempSync(join(tmpdir(), 'cr-empty-'));
    const result = await runCli(['tabs'], { ...relay.env, CHROME_RELAY_HOME: emptyHome });
    expect(result.code).toBe(1);
    expect(result.error).toMatchObject({ code: 'extension_not_connected', retryable: true });
    expect(result.error?.message).toMatch(/chrome-relay launch/);
    expect(result.error?.message).toMatch(/chrome-relay doctor/);
  });

  it('keeps what launch and the host write private: directories 0700, the browser log, socket and descriptor 0600', async () => {
    const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);
    const run = join(relay.home, 'run');
    const logs = join(relay.home, 'logs');
    expect({ home: mode(relay.home), run: mode(run), logs: mode(logs), profile: mode(relay.profile) }).toEqual({ home: '700', run: '700', logs: '700', profile: '700' });
    // The log names the profile, the socket and every URL the browser complains about.
    const files = [...readdirSync(logs).map((name) => join(logs, name)), ...readdirSync(run).filter((name) => /\.(sock|json)$/.test(name)).map((name) => join(run, name))];
    expect(files.some((file) => file.endsWith('.log'))).toBe(true);
    expect(files.some((file) => file.endsWith('.sock'))).toBe(true);
    for (const file of files) expect(`${file}: ${mode(file)}`).toBe(`${file}: 600`);
  });

  it('killing the host mid-call gives native_host_disconnected, and the next call works', async () => {
    const nav = await open('/button.html');
    const hostPid = relay.hostPid();
    const pending = relay.cli('navigate', relay.server.url('/slow?ms=8000'), '--tab', String(nav.tabId));
    await relay.server.waitForRequest('/slow');
    process.kill(hostPid, 'SIGKILL');
    const result = await pending;
    expect(result.code).toBe(1);
    // navigate changes the tab and may already have: not retryable (a read-only call stays retryable, contract.e2e.ts).
    expect(result.error).toMatchObject({ code: 'native_host_disconnected', retryable: false });
    const next = await relay.cli('tabs');
    expect(next.code, next.stderr).toBe(0);
    expect(relay.hostPid()).not.toBe(hostPid);
  });
});
