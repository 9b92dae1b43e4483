/**
 * Observation through the built CLI: screenshots (pixels decoded here), recording (frames + a real GIF),
 * console, network with redaction of headers the fixture server sets, workspaces, groups, leases
 * between two agent identities (conflict and expiry), aliases, batch. Page state is read through
 * the DevTools observer, never taken from chrome-relay's own claim.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, parseCliOutput, startRelay, until, type CliResult, type Relay } from './harness.js';
import { open, read } from './helpers.js';
import { decodePng, near } from './pixels.js';
import { SECRET_API_KEY, SECRET_COOKIE } from './fixtureRoutes.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

function cliWith(env: NodeJS.ProcessEnv, args: string[], stdin?: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], { env: { ...relay.env, ...env }, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve(parseCliOutput(err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr));
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

const notices = (r: CliResult): string[] => r.stderr.split('\n').filter((l) => l.startsWith('{"relayNotice"')).map((l) => (JSON.parse(l) as { relayNotice: { notice: string } }).relayNotice.notice);

describe('screenshot', () => {
  it('captures a background tab with the fixture colours, to a temp file by default', async () => {
    const tab = await open(relay, '/colors.html');
    const shot = await relay.cli('screenshot', '--tab', String(tab.tabId));
    expect(shot.code, shot.stderr).toBe(0);
    const result = shot.json as { path: string; width: number; height: number; format: string };
    expect(result.format).toBe('png');
    expect(shot.stdout).not.toMatch(/iVBOR/); // no base64 on stdout without --base64
    const png = decodePng(readFileSync(result.path));
    expect(near(png.pixel(10, 10), [255, 0, 0])).toBe(true);
    expect(near(png.pixel(300, 50), [0, 128, 0])).toBe(true);
    // The tab stayed in the background (focus emulation makes it *report* visible, so ask Chrome).
    const tabs = (await relay.cli('tabs', '--json')).json as { windows: { tabs: { id: number; active: boolean }[] }[] };
    expect(tabs.windows.flatMap((w) => w.tabs).find((t) => t.id === tab.tabId)?.active).toBe(false);
  });

  it('captures an element below the fold', async () => {
    const tab = await open(relay, '/colors.html');
    const out = join(relay.root, 'below.png');
    const shot = await relay.cli('screenshot', '--tab', String(tab.tabId), '--selector', '#below', '-o', out);
    expect(shot.code, shot.stderr).toBe(0);
    const png = decodePng(readFileSync(out));
    expect([png.width, png.height]).toEqual([120, 60]);
    for (const [x, y] of [[1, 1], [60, 30], [118, 58]] as const) expect(near(png.pixel(x, y), [0, 0, 255]), `${x},${y} ${png.pixel(x, y)}`).toBe(true);
  });

  // Regression: Page.captureScreenshot often never answered on a hidden background tab (headful);
  // captures now come from a screencast frame, so repeated captures must all succeed.
  it('captures an element by ref, below the fold, with its exact box and colour', async () => {
    const tab = await open(relay, '/colors.html');
    const text = (await relay.cli('snapshot', '--tab', String(tab.tabId))).stdout;
    const ref = /button "Blue" \[ref=(e\d+)\]/.exec(text)?.[1];
    expect(ref, text).toBeDefined();
    const out = join(relay.root, 'by-ref.png');
    const shot = await relay.cli('screenshot', `@${ref}`, '-o', out);
    expect(shot.code, shot.stderr).toBe(0);
    expect(shot.json).toMatchObject({ tabId: tab.tabId, width: 100, height: 40 });
    const png = decodePng(readFileSync(out));
    expect([png.width, png.height]).toEqual([100, 40]);
    for (const [x, y] of [[1, 1], [98, 38], [50, 20]] as const) expect(near(png.pixel(x, y), [0, 0, 255]), `${x},${y} ${png.pixel(x, y)}`).toBe(true);
    const bad = await relay.cli('screenshot', '@e999999');
    expect(bad.error?.code).toBe('stale_ref');
  });

  it('captures the same background tab repeatedly, scaled with --max-edge', async () => {
    const tab = await open(relay, '/colors.html');
    expect((await relay.cli('screenshot', '--tab', String(tab.tabId), '--selector', '#below', '-o', join(relay.root, 'first.png'))).code).toBe(0);
    const scaled = await relay.cli('screenshot', '--tab', String(tab.tabId), '--selector', '#below', '--max-edge', '60', '-o', join(relay.root, 'below-small.png'));
    expect(scaled.code, scaled.stderr).toBe(0);
    const small = decodePng(readFileSync(join(relay.root, 'below-small.png')));
    expect([small.width, small.height]).toEqual([60, 30]);
    expect(near(small.pixel(30, 15), [0, 0, 255])).toBe(true);

    const shot = await relay.cli('screenshot', '--tab', String(tab.tabId), '--full', '--max-edge', '400', '-o', join(relay.root, 'full.png'));
    expect(shot.code, shot.stderr).toBe(0);
    const full = decodePng(readFileSync(join(relay.root, 'full.png')));
    expect(Math.max(full.width, full.height)).toBeLessThanOrEqual(400);
    expect(full.height).toBeGreaterThan(full.width); // 4000+ px tall page
  });

  it('finds the --selector element where the page cannot patch the lookup or see it run', async () => {
    const tab = await open(relay, '/colors.html');
    const t = String(tab.tabId);
    const page = await relay.page(tab.path);
    // The page's own JavaScript points every lookup at the red #top and counts the calls it sees.
    await page.evaluate(() => {
      const w = window as unknown as { seen: number };
      w.seen = 0;
      const top = document.getElementById('top');
      Document.prototype.querySelector = function () {
        w.seen++;
        return top;
      };
      Element.prototype.scrollIntoView = function () {
        w.seen++;
      };
    });
    const out = join(relay.root, 'unpatched.png');
    const shot = await relay.cli('screenshot', '--tab', t, '--selector', '#below', '-o', out);
    expect(shot.code, shot.stderr).toBe(0);
    const png = decodePng(readFileSync(out));
    expect([png.width, png.height]).toEqual([120, 60]);
    expect(near(png.pixel(60, 30), [0, 0, 255]), `${png.pixel(60, 30)}`).toBe(true);
    expect(await read<number>(page, 'window.seen')).toBe(0);
    const bad = await relay.cli('screenshot', '--tab', t, '--selector', 'div[');
    expect(bad.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'selector' } });
  });

  it('refuses a missing element and --quality with png', async () => {
    const tab = await open(relay, '/colors.html');
    const missing = await relay.cli('screenshot', '--tab', String(tab.tabId), '--selector', '#nope');
    expect(missing.error?.code).toBe('element_not_found');
    const bad = await relay.cli('screenshot', '--tab', String(tab.tabId), '--quality', '50');
    expect(bad.error?.code).toBe('invalid_arguments');
  });
});

describe('console and network', () => {
  it('console shows messages and exceptions, filters by level, and --since/--clear work', async () => {
    const tab = await open(relay, '/observe.html');
    const all = await until(async () => {
      const r = await relay.cli('console', '--tab', String(tab.tabId), '--json');
      const entries = (r.json as { entries: { id: number; level: string; text: string; source: string }[] } | undefined)?.entries ?? [];
      return entries.some((e) => e.source === 'exception') ? entries : null;
    }, 10_000, 'console entries');
    expect(all.map((e) => e.text)).toEqual(expect.arrayContaining(['hello from observe 42', 'careful', 'broken thing']));
    expect(all.find((e) => e.source === 'exception')?.text).toMatch(/kaboom/);
    const warn = await relay.cli('console', '--tab', String(tab.tabId), '--level', 'warn', '--json');
    expect((warn.json as { entries: { level: string }[] }).entries.every((e) => e.level === 'warn' || e.level === 'error')).toBe(true);
    const last = Math.max(...all.map((e) => e.id));
    const since = await relay.cli('console', '--tab', String(tab.tabId), '--since', String(last), '--clear', '--json');
    expect((since.json as { entries: unknown[] }).entries).toEqual([]);
  });

  it('network lists the navigation and the fetch, redacts sensitive headers unless --raw-headers, and gives bodies and HAR', async () => {
    const tab = await open(relay, '/observe.html');
    const find = async (raw: boolean) =>
      until(async () => {
        const r = await relay.cli('network', '--tab', String(tab.tabId), '--url', '/api/secret', '--json', ...(raw ? ['--raw-headers'] : []));
        const req = (r.json as { requests: { id: string; status: number | null; requestHeaders: Record<string, string>; responseHeaders: Record<string, string> }[] } | undefined)?.requests[0];
        return req && req.status === 200 && Object.keys(req.responseHeaders).some((k) => k.toLowerCase() === 'set-cookie') ? req : null;
      }, 10_000, 'the /api/secret request');
    const header = (h: Record<string, string>, name: string) => Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];
    const redacted = await find(false);
    expect(header(redacted.requestHeaders, 'authorization')).toBe('[redacted]');
    expect(header(redacted.requestHeaders, 'x-trace')).toBe('visible');
    expect(header(redacted.responseHeaders, 'set-cookie')).toBe('[redacted]');
    expect(header(redacted.responseHeaders, 'x-api-key')).toBe('[redacted]');
    expect(header(redacted.responseHeaders, 'x-visible')).toBe('plain');
    const raw = await find(true);
    expect(header(raw.requestHeaders, 'authorization')).toBe('Bearer s3cret-token');
    expect(header(raw.responseHeaders, 'set-cookie')).toBe(SECRET_COOKIE);
    expect(header(raw.responseHeaders, 'x-api-key')).toBe(SECRET_API_KEY);

    const doc = await relay.cli('network', '--tab', String(tab.tabId), '--url', '/observe.html', '--status', '2xx', '--method', 'get', '--json');
    expect((doc.json as { requests: unknown[] }).requests.length).toBeGreaterThanOrEqual(1);

    const body = await relay.cli('network', 'body', redacted.id, '--tab', String(tab.tabId));
    expect(body.code, body.stderr).toBe(0);
    expect(JSON.parse((body.json as { body: string }).body)).toEqual({ secret: 'body-ok' });

    const harFile = join(relay.root, 'out.har');
    const har = await relay.cli('network', 'har', '--tab', String(tab.tabId), '-o', harFile);
    expect(har.code, har.stderr).toBe(0);
    const text = readFileSync(harFile, 'utf8');
    const log = (JSON.parse(text) as { log: { version: string; entries: { request: { url: string } }[] } }).log;
    expect(log.version).toBe('1.2');
    expect(log.entries.some((e) => e.request.url.includes('/api/secret'))).toBe(true);
    expect(text).not.toContain('s3cret-token');
    expect(text).not.toContain('topsecret-cookie-value');
  });

  it('masks tokens in URLs (query, Referer, HAR) and in console text (bearer strings, the tab\'s cookies) unless raw', async () => {
    const tab = await open(relay, '/observe.html');
    const t = String(tab.tabId);
    const secrets = ['url-secret-1', 'cookie-secret-value-2', 'bearer-secret-3', 'ref-secret-4'];
    const acted = await relay.cli('js', '--tab', t, [
      "await fetch('/api/secret?access_token=url-secret-1&x=1')",
      "document.cookie = 'pref=cookie-secret-value-2'",
      "console.log('sent Bearer bearer-secret-3 with', document.cookie)",
      "history.replaceState(null, '', location.pathname + '?code=ref-secret-4')",
      "await fetch('/api/secret?y=2')",
      '1',
    ].join('; '));
    expect(acted.code, acted.stderr).toBe(0);
    const network = await until(async () => {
      const r = await relay.cli('network', '--tab', t, '--url', '/api/secret', '--json');
      return (r.json as { requests: unknown[] } | undefined)?.requests.length === 3 ? r : null;
    }, 10_000, 'both fetches');
    const harFile = join(relay.root, 'tokens.har');
    expect((await relay.cli('network', 'har', '--tab', t, '-o', harFile)).code).toBe(0);
    const consoleOut = await relay.cli('console', '--tab', t);
    for (const text of [network.stdout, readFileSync(harFile, 'utf8'), consoleOut.stdout]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    expect(network.stdout).toContain('access_token=[redacted]&x=1');
    expect(network.stdout).toMatch(/"Referer": "http:\/\/127\.0\.0\.1:\d+\/observe\.html\?code=\[redacted\]"/);
    expect(consoleOut.stdout).toContain('sent Bearer [redacted] with');
    // The filter matches what the page really asked for; the answer still never echoes the token in a URL, not even
    // with --raw-headers (which shows headers as sent): URL credentials are redacted in every answer.
    const raw = await relay.cli('network', '--tab', t, '--url', 'access_token=url-secret-1', '--raw-headers', '--json');
    expect((raw.json as { requests: unknown[] }).requests).toHaveLength(1);
    expect(raw.stdout).toContain('access_token=[redacted]&x=1');
    expect(raw.stdout).not.toContain('url-secret-1');
  });
});

describe('record', () => {
  it('records frames and makes a GIF with ffmpeg', async () => {
    const tab = await open(relay, '/observe.html');
    const page = await relay.page(tab.path);
    await page.evaluate(() => (window as unknown as { animate(): void }).animate());
    const start = await relay.cli('record', 'start', '--tab', String(tab.tabId));
    expect(start.code, start.stderr).toBe(0);
    await new Promise((r) => setTimeout(r, 1500));
    const dir = mkdtempSync(join(tmpdir(), 'cr-rec-'));
    const stop = await relay.cli('record', 'stop', '--tab', String(tab.tabId), '--out', dir, '--gif', '--fps', '5');
    expect(stop.code, stop.stderr).toBe(0);
    const result = stop.json as { frames: number; gif: string };
    expect(result.frames).toBeGreaterThanOrEqual(3);
    expect(readdirSync(dir).filter((f) => f.endsWith('.jpg'))).toHaveLength(result.frames);
    expect(readFileSync(result.gif).subarray(0, 6).toString()).toBe('GIF89a');
    // Not a terminal: no progress lines, so stderr is only ever an error's one line and block.
    expect(stop.stderr).toBe('');
  });

  it('a screenshot while recording comes from the recording (never stopping it); --full is refused naming the move', async () => {
    const tab = await open(relay, '/observe.html');
    const t = String(tab.tabId);
    const page = await relay.page(tab.path);
    await page.evaluate(() => (window as unknown as { animate(): void }).animate());
    expect((await relay.cli('record', 'start', '--tab', t)).code).toBe(0);
    const shot = await relay.cli('screenshot', '--tab', t);
    expect(shot.code, shot.stderr).toBe(0);
    const file = (shot.json as { path: string }).path;
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    const full = await relay.cli('screenshot', '--tab', t, '--full');
    expect(full.error).toMatchObject({ code: 'target_conflict', retryable: false, details: { reason: 'recording', field: 'full' } });
    expect(full.error?.message).toContain('record stop');
    await new Promise((r) => setTimeout(r, 1000));
    const dir = mkdtempSync(join(tmpdir(), 'cr-rec-'));
    const stop = await relay.cli('record', 'stop', '--tab', t, '--out', dir);
    expect(stop.code, stop.stderr).toBe(0);
    // Still recording after the screenshot: frames kept coming.
    expect((stop.json as { frames: number }).frames).toBeGreaterThanOrEqual(3);
  });

  it('an element screenshot while recording is cut from a frame drawn after the element was scrolled into view', async () => {
    const tab = await open(relay, '/colors.html');
    const t = String(tab.tabId);
    const ref = /button "Blue" \[ref=(e\d+)\]/.exec((await relay.cli('snapshot', '--tab', t)).stdout)?.[1];
    expect(ref).toBeDefined();
    expect((await relay.cli('record', 'start', '--tab', t)).code).toBe(0);
    try {
      // The page is at the top: the recording's newest frame shows red and green, not the blue button 3,200 px down.
      for (const [target, out] of [[`@${ref}`, 'rec-ref.png'], ['--selector', 'rec-sel.png']] as const) {
        await relay.cli('js', 'window.scrollTo(0, 0)', '--tab', t);
        const args = target === '--selector' ? ['--selector', '#below'] : [target];
        const shot = await relay.cli('screenshot', ...args, '--tab', t, '-o', join(relay.root, out));
        expect(shot.code, shot.stderr).toBe(0);
        const png = decodePng(readFileSync(join(relay.root, out)));
        // A recording's frames are JPEG: sample inside the edges.
        for (const [x, y] of [[0.2, 0.3], [0.5, 0.5], [0.8, 0.7]] as const) {
          const pixel = png.pixel(Math.round(png.width * x), Math.round(png.height * y));
          expect(near(pixel, [0, 0, 255]), `${target} ${x},${y} ${pixel}`).toBe(true);
        }
      }
    } finally {
      await relay.cli('record', 'stop', '--tab', t, '--out', mkdtempSync(join(tmpdir(), 'cr-rec-')));
    }
  });

  it('without ffmpeg, --gif is external_dependency_missing and the recording keeps running', async () => {
    const tab = await open(relay, '/observe.html');
    expect((await relay.cli('record', 'start', '--tab', String(tab.tabId))).code).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'cr-rec-'));
    const noFfmpeg = await cliWith({ PATH: '/nonexistent' }, ['record', 'stop', '--tab', String(tab.tabId), '--out', dir, '--gif']);
    expect(noFfmpeg.error?.code).toBe('external_dependency_missing');
    expect(noFfmpeg.error?.details).toMatchObject({ dependency: 'ffmpeg' });
    expect(noFfmpeg.error?.message).toMatch(/without --gif/);
    const framesOnly = await relay.cli('record', 'stop', '--tab', String(tab.tabId), '--out', dir);
    expect(framesOnly.code, framesOnly.stderr).toBe(0);
    expect(existsSync(join(dir, 'recording.gif'))).toBe(false);
  });
});

describe('workspaces, groups, leases', () => {
  it('workspace create opens an unfocused window; list and close', async () => {
    const focusedBefore = await relay.devtools.pages();
    const created = await cliWith({ CHROME_RELAY_AGENT: 'alice' }, ['workspace', 'create', 'ws-a']);
    expect(created.code, created.stderr).toBe(0);
    const ws = created.json as { windowId: number; tabId: number; owner: string };
    expect(ws.owner).toBe('alice');
    const tabs = (await relay.cli('tabs', '--json')).json as { windows: { id: number; focused: boolean }[] };
    expect(tabs.windows.find((w) => w.id === ws.windowId)?.focused).toBe(false);
    const list = await relay.cli('workspace', 'list', '--json');
    expect((list.json as { workspaces: { name: string }[] }).workspaces.map((w) => w.name)).toContain('ws-a');
    // bob may not close alice's workspace; alice may.
    const bobClose = await cliWith({ CHROME_RELAY_AGENT: 'bob' }, ['workspace', 'close', 'ws-a']);
    expect(bobClose.error?.code).toBe('target_conflict');
    expect(bobClose.error?.details.owner).toBe('alice');
    const close = await cliWith({ CHROME_RELAY_AGENT: 'alice' }, ['workspace', 'close', 'ws-a']);
    expect(close.code, close.stderr).toBe(0);
    const gone = await relay.cli('workspace', 'close', 'ws-a');
    expect(gone.error?.code).toBe('target_not_found');
    expect(focusedBefore.length).toBeGreaterThan(0);
  });

  it('group create is all-or-nothing unless --allow-partial; list and close', async () => {
    const a = await open(relay, '/button.html');
    const b = await open(relay, '/button.html');
    const refused = await relay.cli('group', 'create', 'grp1', String(a.tabId), '999999');
    expect(refused.error?.code).toBe('partial_success_disallowed');
    expect(refused.error?.details).toMatchObject({ applied: [], failed: [{ target: '999999', code: 'target_not_found' }] });
    expect(((await relay.cli('tabs', '--json')).json as { windows: { tabs: { id: number; groupId: number }[] }[] }).windows.flatMap((w) => w.tabs).find((t) => t.id === a.tabId)?.groupId).toBe(-1);
    const partial = await relay.cli('group', 'create', 'grp1', String(a.tabId), '999999', '--allow-partial', '--color', 'blue');
    expect(partial.code, partial.stderr).toBe(0);
    expect(partial.json).toMatchObject({ applied: [a.tabId], failed: [{ target: '999999' }] });
    const add = await relay.cli('group', 'add', 'grp1', String(b.tabId));
    expect(add.code, add.stderr).toBe(0);
    const list = await relay.cli('group', 'list', '--json');
    expect((list.json as { groups: { name: string; color: string; tabIds: number[] }[] }).groups.find((g) => g.name === 'grp1')).toMatchObject({ color: 'blue', tabIds: [a.tabId, b.tabId] });
    const close = await relay.cli('group', 'close', 'grp1');
    expect(close.json).toMatchObject({ applied: [a.tabId, b.tabId], failed: [] });
  });

  it('a lease blocks another agent, and expires after its idle ttl', async () => {
    const tab = await open(relay, '/button.html');
    const claim = await cliWith({ CHROME_RELAY_AGENT: 'alice' }, ['lease', 'claim', '--tab', String(tab.tabId), '--ttl', '3']);
    expect(claim.code, claim.stderr).toBe(0);
    const steal = await cliWith({ CHROME_RELAY_AGENT: 'bob' }, ['lease', 'claim', '--tab', String(tab.tabId)]);
    expect(steal.error?.code).toBe('target_conflict');
    expect(steal.error?.details.owner).toBe('alice');
    const bobActs = await cliWith({ CHROME_RELAY_AGENT: 'bob' }, ['snapshot', '--tab', String(tab.tabId)]);
    expect(bobActs.error?.code).toBe('target_conflict');
    expect(bobActs.error?.details.owner).toBe('alice');
    const aliceActs = await cliWith({ CHROME_RELAY_AGENT: 'alice' }, ['snapshot', '--tab', String(tab.tabId)]);
    expect(aliceActs.code, aliceActs.stderr).toBe(0);
    const leases = await relay.cli('lease', 'list', '--json');
    expect((leases.json as { leases: { owner: string; target: string }[] }).leases).toContainEqual(expect.objectContaining({ owner: 'alice', target: String(tab.tabId) }));
    await new Promise((r) => setTimeout(r, 3500));
    const after = await cliWith({ CHROME_RELAY_AGENT: 'bob' }, ['snapshot', '--tab', String(tab.tabId)]);
    expect(after.code, after.stderr).toBe(0);
    const bobClaims = await cliWith({ CHROME_RELAY_AGENT: 'bob' }, ['lease', 'claim', '--tab', String(tab.tabId)]);
    expect(bobClaims.code, bobClaims.stderr).toBe(0);
    const release = await cliWith({ CHROME_RELAY_AGENT: 'bob' }, ['lease', 'release', '--all']);
    expect((release.json as { released: unknown[] }).released).toHaveLength(1);
  });

  it('--workspace targets the workspace tab; two targets conflict; a missing one is not found; override prints a notice', async () => {
    const created = await relay.cli('workspace', 'create', 'ws-t', '--url', relay.server.url('/colors.html'));
    expect(created.code, created.stderr).toBe(0);
    const { tabId } = created.json as { tabId: number };
    await until(async () => ((await relay.cli('screenshot', '--workspace', 'ws-t')).json as { tabId?: number } | undefined)?.tabId === tabId, 10_000, 'workspace screenshot');
    const both = await relay.cli('screenshot', '--workspace', 'ws-t', '--group', 'g');
    expect(both.error?.code).toBe('target_conflict');
    const missing = await relay.cli('screenshot', '--workspace', 'nope');
    expect(missing.error?.code).toBe('target_not_found');
    const other = await open(relay, '/colors.html');
    const overridden = await relay.cli('--workspace', 'ws-t', 'screenshot', '--tab', String(other.tabId));
    expect(overridden.code, overridden.stderr).toBe(0);
    expect((overridden.json as { tabId: number }).tabId).toBe(other.tabId);
    expect(notices(overridden)).toEqual(['target_overridden']);
    const plain = await relay.cli('screenshot', '--tab', String(other.tabId));
    expect(notices(plain)).toEqual([]);
    expect((await relay.cli('workspace', 'close', 'ws-t')).code).toBe(0);
  });
});

describe('aliases and batch', () => {
  it('read / ax / click-ax work and print the deprecated notice', async () => {
    const tab = await open(relay, '/button.html');
    const read = await relay.cli('read', '--tab', String(tab.tabId));
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toMatch(/button "Increment" \[ref=e\d+\]/);
    expect(notices(read)).toEqual(['deprecated']);
    const ax = await relay.cli('ax', '--tab', String(tab.tabId));
    expect((ax.json as { tabId: number }).tabId).toBe(tab.tabId);
    const ref = /button "Increment" \[ref=(e\d+)\]/.exec(read.stdout)?.[1] ?? '';
    const click = await relay.cli('click-ax', `@${ref}`);
    expect(click.code, click.stderr).toBe(0);
    expect(notices(click)).toEqual(['deprecated']);
    const page = await relay.page(tab.path);
    await until(async () => (await page.evaluate(() => (window as unknown as { clicks: number }).clicks)) === 1, 5000, 'click landed');
    expect(notices(await relay.cli('snapshot', '--tab', String(tab.tabId)))).toEqual([]);
  });

  it('batch runs steps in order, stops at the first failure, and --no-bail runs on', async () => {
    const tab = await open(relay, '/button.html');
    const steps = JSON.stringify([
      { command: 'snapshot', args: ['--tab', String(tab.tabId), '--json'] },
      { tool: 'screenshot', params: { tab: 999999 } },
      { command: 'tabs' },
    ]);
    const bail = await cliWith({}, ['batch'], steps);
    expect(bail.code).toBe(1);
    const out = bail.json as { ok: boolean; stoppedAt: number; results: { ok: boolean; error?: { code: string } }[] };
    expect(out).toMatchObject({ ok: false, stoppedAt: 1 });
    expect(out.results).toHaveLength(2);
    expect(out.results[1]?.error?.code).toBe('target_not_found');
    const all = await cliWith({}, ['batch', '--no-bail'], steps);
    expect((all.json as { results: unknown[] }).results).toHaveLength(3);
    const bad = await cliWith({}, ['batch'], '{"nope":1}');
    expect(bad.error?.code).toBe('invalid_arguments');
  });
});
