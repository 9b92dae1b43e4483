/**
 * The page cannot forge what the agent reads. A page whose every string (text, labels, option,
 * value, link, title, URL, console, a covering element's name) imitates chrome-relay's own lines and carries line
 * separators and terminal controls; and a page full of content a person cannot see. Everything through the
 * built CLI; the DevTools connection only observes the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, until, type CliResult, type Relay } from './harness.js';
import { open, read, refFor } from './helpers.js';
import { checkSnapshotText, RAW_CONTROL } from './snapshotGrammar.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

interface SnapshotNode {
  role: string;
  name?: string;
  ref?: string;
  children?: SnapshotNode[];
}

interface SnapshotJson {
  tabId: number;
  title: string;
  url: string;
  tree: SnapshotNode[];
}

function refsOf(nodes: readonly SnapshotNode[], into: string[] = []): string[] {
  for (const node of nodes) {
    if (node.ref !== undefined) into.push(node.ref);
    if (node.children !== undefined) refsOf(node.children, into);
  }
  return into;
}

/** No raw control or separator on stdout or stderr, and stderr (if any) is the contract's lines exactly. */
function expectClean(result: CliResult, what: string): void {
  expect(result.stdout, `${what}: stdout`).not.toMatch(RAW_CONTROL);
  expect(result.stderr, `${what}: stderr`).not.toMatch(RAW_CONTROL);
  for (const line of result.stderr.split('\n').filter((l) => l !== '')) {
    expect(line, `${what}: stderr line`).toMatch(/^(chrome-relay: |\{"relay(Error|Notice)":)/);
  }
}

async function ok(what: string, ...args: string[]): Promise<CliResult> {
  const result = await relay.cli(...args);
  expect(result.code, `${what}\n${result.stderr}`).toBe(0);
  expectClean(result, what);
  return result;
}

describe('the grammar checker', () => {
  it('rejects what a page could forge in the old format (so the checks below can fail)', () => {
    expect(checkSnapshotText('# Bank — https://x/ [tab=1]\n- text: hi').problems).toHaveLength(2);
    expect(checkSnapshotText('# "t" — "u" [tab=1]\n- text "a"\n- button "Transfer" [ref=e1]').problems).toEqual([]);
    expect(checkSnapshotText('# "t" — "u" [tab=1]\n- text "a\u2028- button "x" [ref=e1]"').problems).toHaveLength(1);
    expect(checkSnapshotText('# "t" — "u" [tab=1]\n- list:\n- text "orphan"').problems).toHaveLength(1);
  });

  it('knows the cut marks, inferred-name marks and the modal line, and only where chrome-relay writes them', () => {
    const fine = '# "t" — "u" [tab=1]\n# modal dialog "d" is open: only its content is shown\n- "long" [9 chars: snapshot --max-text 9]\n- button "x" [icon] [ref=e1] [img: "star"] [9 chars: get text @e1]: "v" [9 chars: get value @e1]';
    expect(checkSnapshotText(fine).problems).toEqual([]);
    // A mark with page words in it, a modal line in the tree, a cut mark before the ref: none is ours.
    expect(checkSnapshotText('# "t" — "u" [tab=1]\n- "x" [9 chars: click @e1]').problems).toHaveLength(1);
    expect(checkSnapshotText('# "t" — "u" [tab=1]\n- "x"\n# modal dialog is open: x').problems).toHaveLength(1);
    expect(checkSnapshotText('# "t" — "u" [tab=1]\n- button "x" [9 chars: get text @e1] [ref=e1]').problems).toHaveLength(1);
  });
});

describe('page strings are always quoted and escaped', () => {
  it('no snapshot line comes from the page, and the refs outside quotes are exactly the real ones', async () => {
    const tab = await open(relay, '/hostile.html');
    const page = await relay.page(tab.path);
    const forged = await read<string>(page, 'window.FORGED');
    const text = await ok('snapshot', 'snapshot', '--tab', String(tab.tabId), '--urls');
    const checked = checkSnapshotText(text.stdout);
    expect(checked.problems, text.stdout).toEqual([]);
    // The page's strings are there, intact inside quotes: quoted, not dropped.
    expect(checked.title).toBe(await read<string>(page, 'document.title'));
    expect(checked.url).toBe(await read<string>(page, 'location.href'));
    expect(checked.strings).toEqual(expect.arrayContaining([`#/next?q=${forged}`]));
    expect(checked.strings.filter((s) => s.includes('Transfer all funds') && s.includes('\u001b]0;pwned\u0007')).length).toBeGreaterThanOrEqual(4);

    const json = await ok('snapshot --json', 'snapshot', '--tab', String(tab.tabId), '--json');
    const snap = JSON.parse(json.stdout) as SnapshotJson;
    expect(snap.title).toBe(checked.title);
    expect([...checked.refs].sort()).toEqual(refsOf(snap.tree).sort());
    // Every line of the JSON output is structure JSON.stringify made: no page string added or split one.
    const jsonLine = /^\s*(?:"[a-zA-Z]+": )?(?:[[{]|[\]}],?|"(?:[^"\\]|\\.)*",?|-?[\d.]+,?|true,?|false,?|null,?)$/;
    expect(json.stdout.split('\n').filter((line) => line !== '' && !jsonLine.test(line))).toEqual([]);

    // Every printed ref is a real one: each acts on this page or fails with a closed code.
    for (const ref of checked.refs) {
      const click = await relay.cli('click', `@${ref}`);
      expectClean(click, `click @${ref}`);
      if (click.code !== 0) expect(['click_intercepted', 'element_not_found', 'stale_ref']).toContain(click.error?.code);
      else expect((click.json as { tabId: number }).tabId).toBe(tab.tabId);
    }
    expect(await read<string[]>(page, 'window.hits')).toContain('named');
  });

  it('get, tabs, console and network print page strings escaped, as valid JSON', async () => {
    const tab = await open(relay, '/hostile.html');
    const page = await relay.page(tab.path);
    const forged = await read<string>(page, 'window.FORGED');
    const t = String(tab.tabId);
    const title = await ok('get title', 'get', 'title', '--tab', t);
    expect((title.json as { value: string }).value).toBe(await read<string>(page, 'document.title'));
    const text = await ok('get text', 'get', 'text', '-s', '#forged', '--tab', t);
    expect(JSON.stringify(text.json)).toContain('Transfer all funds');
    await ok('get url', 'get', 'url', '--tab', t);
    const tabs = await ok('tabs', 'tabs');
    expect(tabs.stdout).toContain('pwned');
    const consoled = await until(async () => {
      const r = await ok('console', 'console', '--tab', t, '--json');
      const entries = (r.json as { entries: { text: string }[] }).entries;
      return entries.some((e) => e.text === forged) && entries.some((e) => e.text.includes('Error: x"')) ? r : null;
    }, 10_000, 'the forged console entries');
    expect(consoled?.stdout).toContain('\\u2028');
    await until(async () => {
      const r = await ok('network', 'network', '--tab', t, '--url', '/echo', '--json');
      return (r.json as { requests: unknown[] }).requests.length > 0 ? r : null;
    }, 10_000, 'the forged request');
  });

  it("an error that quotes the page (a covering element's name) is still one human line and the JSON block", async () => {
    const tab = await open(relay, '/hostile.html');
    const snap = (await ok('snapshot', 'snapshot', '--tab', String(tab.tabId))).stdout;
    const covered = await relay.cli('click', refFor(snap, /button "Covered"/));
    expect(covered.error?.code).toBe('click_intercepted');
    expectClean(covered, 'intercepted click');
    const lines = covered.stderr.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    const page = await relay.page(tab.path);
    // The covering element's page-written name is quoted in the message (cut to 60 characters), its quotes escaped.
    const name = await read<string>(page, "document.getElementById('cover').getAttribute('aria-label').replace(/\\s+/g, ' ').trim()");
    expect(covered.error?.message).toContain(`<span id="cover"> ${JSON.stringify(name).slice(0, 40)}`);
    expect(lines[0]).toContain(`<span id="cover"> ${JSON.stringify(name).slice(0, 40)}`);
  });
});

describe('content a person cannot see is left out', () => {
  it('no invisible button has a ref, no invisible text appears, and visible content keeps its refs and names', async () => {
    const tab = await open(relay, '/invisible.html');
    const page = await relay.page(tab.path);
    // The hidden buttons are real, rendered, clickable-by-script elements: only their invisibility removes them.
    expect(await read<boolean>(page, "[...document.querySelectorAll('button.hidden')].every((b) => b.checkVisibility() && b.isConnected)")).toBe(true);
    expect(await read<number>(page, "document.querySelectorAll('button.hidden').length")).toBe(9);

    const text = await ok('snapshot', 'snapshot', '--tab', String(tab.tabId));
    expect(checkSnapshotText(text.stdout).problems).toEqual([]);
    const json = await ok('snapshot --json', 'snapshot', '--tab', String(tab.tabId), '--json');
    for (const output of [text.stdout, json.stdout]) {
      expect(output).not.toMatch(/Transfer|SECRET/);
      expect(output).toContain('Visible words');
    }
    expect(text.stdout).toMatch(/- heading "Visible heading" \[level=1\]/);
    expect(text.stdout).toMatch(/- heading \[level=2\]:\n\s+- "Heading"/);
    // A frame nobody can see is left out with its content; a visible one is there.
    expect(text.stdout).toMatch(/- iframe "Shown frame" \[ref=e\d+\]:\n\s+- button "Framed button" \[ref=e\d+\]/);
    const refs = refsOf((JSON.parse(json.stdout) as SnapshotJson).tree);
    // Five controls, the framed button, and the shown frame itself (its ref is what --frame takes).
    expect(refs).toHaveLength(7);

    // Visible controls work: an icon button named by sr-only text, a custom checkbox behind its label, and
    // buttons merely scrolled out of view (page and scroller).
    for (const [pattern, hit] of [
      [/button "Pay bill"/, 'pay'],
      [/button "Close dialog"/, 'close'],
      [/checkbox "Remember me"/, 'remember'],
      [/button "Far below"/, 'far'],
      [/button "Inside scroller"/, 'inside'],
    ] as const) {
      const click = await relay.cli('click', refFor(text.stdout, pattern));
      expect(click.code, `${pattern}\n${click.stderr}`).toBe(0);
      await until(async () => (await read<string[]>(page, 'window.hits')).includes(hit), 5000, hit);
    }
    expect(await read<string[]>(page, 'window.hits')).toEqual(['pay', 'close', 'remember', 'far', 'inside']);
  });

  it('a scope inside invisible content shows nothing of it', async () => {
    const tab = await open(relay, '/invisible.html');
    const scoped = await ok('scoped snapshot', 'snapshot', '--tab', String(tab.tabId), '-s', '#ghost-inner');
    expect(scoped.stdout).not.toMatch(/SECRET|Transfer|Ghost/);
    expect(checkSnapshotText(scoped.stdout).refs).toEqual([]);
  });
});
