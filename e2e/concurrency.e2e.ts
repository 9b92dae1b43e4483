/**
 * Several agents acting in one tab at once: every answer must match what the page received. N CLI processes
 * click (by ref and by coordinates), check, type and fill in one tab at the same time, some of them aimed at a
 * trap whose cover appears when the pointer arrives (those must be refused). After each round the page's own
 * log, read over DevTools, is held to every answer:
 * - exit 0: the element's handler ran exactly once (a field holds exactly the text);
 * - click_intercepted, or timeout busy (queued past its deadline, never started): nothing of it ran;
 * - timeout that says it may have acted: at most once;
 * - nothing ran that no call aimed at, and no cover heard a thing — except where a click by coordinates found the
 *   cover already there (the pointer rested on its trap since the last round): its answer names the cover, which
 *   then had exactly that one click.
 * A second test keeps the tab busy with a long `type` and starts calls with short deadlines behind it: they answer
 * timeout busy and did nothing, and the long text arrives whole in its own field; a third cuts a long `type` off at
 * its deadline: it types no further. Seeded: replay with E2E_SEED.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, until, type CliResult, type Relay } from './harness.js';
import { open, read, refFor, snapshot } from './helpers.js';
import { prng } from './targetingModel.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

type Kind = 'button' | 'trap' | 'check' | 'field';
interface Target {
  id: string;
  kind: Kind;
  /** Its accessible name in the snapshot. */
  name: RegExp;
  /** Its centre (fixed in the fixture), for clicks by coordinates. */
  x: number;
  y: number;
}

const cell = (column: number, row: number): { x: number; y: number } => ({ x: 20 + 130 * column + 55, y: 20 + 60 * row + 18 });
const TARGETS: Target[] = [
  { id: 'b0', kind: 'button', name: /button "Alpha"/, ...cell(0, 0) },
  { id: 'b1', kind: 'button', name: /button "Bravo"/, ...cell(1, 0) },
  { id: 'b2', kind: 'button', name: /button "Charlie"/, ...cell(2, 0) },
  { id: 'b3', kind: 'button', name: /button "Delta"/, ...cell(3, 0) },
  { id: 'b4', kind: 'button', name: /button "Echo"/, ...cell(0, 1) },
  { id: 'b5', kind: 'button', name: /button "Foxtrot"/, ...cell(1, 1) },
  { id: 't0', kind: 'trap', name: /button "Trap one"/, ...cell(2, 1) },
  { id: 't1', kind: 'trap', name: /button "Trap two"/, ...cell(3, 1) },
  { id: 'c0', kind: 'check', name: /checkbox "Check one"/, x: 0, y: 0 },
  { id: 'c1', kind: 'check', name: /checkbox "Check two"/, x: 0, y: 0 },
  { id: 'f0', kind: 'field', name: /textbox "Field one"/, x: 0, y: 0 },
  { id: 'f1', kind: 'field', name: /textbox "Field two"/, x: 0, y: 0 },
  { id: 'f2', kind: 'field', name: /textbox "Field three"/, x: 0, y: 0 },
];
const SLOW: Target = { id: 'slow', kind: 'button', name: /button "Slow"/, x: 20 + 55, y: 200 + 18 };

const AGENTS = 6;
const ROUNDS = 6;

interface Action {
  target: Target;
  args: string[];
  /** What a field must hold after an ok answer. */
  text?: string;
}

type Verdict = 'ok' | 'refused' | 'unknown';

/** What an answer claims: it happened, it did not, or it may have. Anything else fails the test. */
function verdictOf(result: CliResult, what: string): Verdict {
  if (result.code === 0) return 'ok';
  const error = result.error;
  if (error?.code === 'click_intercepted') return 'refused';
  if (error?.code === 'timeout' && error.details.reason === 'busy') {
    expect(error.retryable, `${what}: a call that never started is retryable\n${result.stderr}`).toBe(true);
    return 'refused';
  }
  if (error?.code === 'timeout' && error.details.mayHaveActed === true) return 'unknown';
  throw new Error(`${what}: unexpected answer\n${result.stderr}`);
}

function pick(random: () => number, items: readonly Target[], count: number): Target[] {
  const pool = [...items];
  const chosen: Target[] = [];
  while (chosen.length < count && pool.length > 0) chosen.push(...pool.splice(Math.floor(random() * pool.length), 1));
  return chosen;
}

function actionFor(random: () => number, target: Target, ref: string, word: string): Action {
  switch (target.kind) {
    case 'button':
    case 'trap':
      return { target, args: random() < 0.5 ? ['click', ref] : ['click', '--x', String(target.x), '--y', String(target.y)] };
    case 'check':
      return { target, args: ['check', ref] };
    case 'field':
      return { target, text: word, args: random() < 0.5 ? ['type', word, '-s', ref] : ['fill', ref, word] };
  }
}

interface PageState {
  log: string[];
  fields: Record<string, string>;
}

async function pageState(page: Page): Promise<PageState> {
  return read<PageState>(page, `({ log: [...window.log], fields: Object.fromEntries([...document.querySelectorAll('input[type=text]')].map((f) => [f.id, f.value])) })`);
}

function shown(state: PageState): string {
  const text = `log: ${JSON.stringify(state.log)} fields: ${JSON.stringify(state.fields)}`;
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

/** What a cover's listeners log, in the order one click fires them (pages/concurrent.html). */
const COVER_EVENTS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'];

/** The trap whose cover logged `entry` ("t0-cover:click" → "t0"). */
function coverOf(entry: string): string | undefined {
  return /^(t\d)-cover:/.exec(entry)?.[1];
}

/** The id of the element an ok click's answer names as clicked. */
function namedTarget(result: CliResult | undefined): string | undefined {
  if (result?.code !== 0 || typeof result.json !== 'object' || result.json === null || !('target' in result.json)) return undefined;
  const { target } = result.json as { target: unknown };
  return typeof target === 'object' && target !== null && 'id' in target && typeof target.id === 'string' ? target.id : undefined;
}

/** Hold every answer of a round to the page's log. */
function check(actions: readonly Action[], results: readonly CliResult[], state: PageState, label: string): Record<Verdict, number> {
  const tally: Record<Verdict, number> = { ok: 0, refused: 0, unknown: 0 };
  const aimed = new Set(actions.map((action) => action.target.id));
  // A click by coordinates is on whatever is at the point when it starts, and its answer names that element. A trap's
  // cover can be there already: reset() hides it under a pointer resting on the trap since the last round, and the
  // browser then tells the trap the pointer is over it again (pointerover without a move), which shows the cover.
  const covered = new Set<string>();
  for (const [index, action] of actions.entries()) {
    const named = namedTarget(results[index]);
    if (action.target.kind === 'trap' && action.args.includes('--x') && named === `${action.target.id}-cover`) covered.add(action.target.id);
  }
  if (covered.size > 0) console.log(`${label}: a click by coordinates found the cover of ${[...covered].join(', ')} already there`);
  const strays = state.log.filter((entry) => !aimed.has(entry) && !covered.has(coverOf(entry) ?? ''));
  expect(strays, `${label}: handlers ran that no call aimed at\n${shown(state)}`).toEqual([]);
  for (const [index, action] of actions.entries()) {
    const result = results[index];
    if (result === undefined) throw new Error('missing result');
    const what = `${label}: ${action.args.map((arg) => (arg.length > 40 ? `${arg.slice(0, 40)}…` : arg)).join(' ')}`;
    const verdict = verdictOf(result, what);
    tally[verdict]++;
    const context = `${what} answered ${verdict} (${result.error?.code ?? 'exit 0'}${result.error?.details.reason ? ` ${String(result.error.details.reason)}` : ''})\n${shown(state)}\n${result.stderr.slice(0, 600)}`;
    if (action.target.kind === 'field') {
      const value = state.fields[action.target.id];
      if (verdict === 'ok') expect(value, context).toBe(action.text);
      if (verdict === 'refused') expect(value, context).toBe('');
      if (verdict === 'unknown') expect(['', action.text], context).toContain(value);
      continue;
    }
    const runs = state.log.filter((entry) => entry === action.target.id).length;
    if (covered.has(action.target.id)) {
      // Ok, and named the cover that was there: the cover had the whole click, once, and the trap nothing.
      expect(verdict, context).toBe('ok');
      expect(runs, context).toBe(0);
      expect(state.log.filter((entry) => coverOf(entry) === action.target.id), context).toEqual(COVER_EVENTS.map((type) => `${action.target.id}-cover:${type}`));
      continue;
    }
    if (verdict === 'ok') expect(runs, context).toBe(1);
    if (verdict === 'refused') expect(runs, context).toBe(0);
    if (verdict === 'unknown') expect(runs, context).toBeLessThanOrEqual(1);
    if (action.target.kind === 'trap') expect(verdict, context).not.toBe('ok');
  }
  return tally;
}

interface Planned {
  action: Action;
  /** Start only once this resolves. */
  after?: () => Promise<unknown>;
  timeoutMs?: number;
}

async function round(tabId: number, page: Page, actions: (refs: Map<string, string>) => Planned[], label: string): Promise<Record<Verdict, number>> {
  const reset = await relay.cli('js', 'reset()', '--tab', String(tabId));
  expect(reset.code, reset.stderr).toBe(0);
  const text = await snapshot(relay, tabId);
  const refs = new Map([...TARGETS, SLOW].map((target) => [target.id, refFor(text, target.name)]));
  const planned = actions(refs);
  const results = await Promise.all(
    planned.map(async ({ action, after, timeoutMs }) => {
      await after?.();
      return relay.cli('--json', ...action.args, '--tab', String(tabId), ...(timeoutMs === undefined ? [] : ['--timeout', String(timeoutMs)]));
    }),
  );
  let state = await pageState(page);
  if (planned.some((_, index) => results[index]?.error?.details.mayHaveActed === true)) {
    // A call cut off by its deadline may still be acting: read once the page stops changing.
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const later = await pageState(page);
      if (JSON.stringify(later) === JSON.stringify(state)) break;
      state = later;
    }
  }
  return check(
    planned.map((p) => p.action),
    results,
    state,
    label,
  );
}

describe('concurrent input in one tab', () => {
  it(`${AGENTS} agents act in one tab at once for ${ROUNDS} rounds: every answer matches the page's log`, async () => {
    const seed = Number(process.env.E2E_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`concurrency property: seed ${seed} (replay with E2E_SEED=${seed})`);
    const random = prng(seed);
    const tab = await open(relay, '/concurrent.html');
    const page = await relay.page(tab.path);
    const totals: Record<Verdict, number> = { ok: 0, refused: 0, unknown: 0 };
    for (let n = 1; n <= ROUNDS; n++) {
      const tally = await round(
        tab.tabId,
        page,
        (refs) =>
          // The slow button's handler holds the page's main thread: the input of others meanwhile waits for it.
          pick(random, [...TARGETS, SLOW], AGENTS).map((target, index) => ({
            action: actionFor(random, target, refs.get(target.id) ?? '', `r${n}a${index}`),
          })),
        `round ${n} (seed ${seed})`,
      );
      for (const verdict of ['ok', 'refused', 'unknown'] as const) totals[verdict] += tally[verdict];
    }
    console.log(`concurrency property: ${JSON.stringify(totals)}`);
    // Nothing here outlasts a deadline: every call had its turn well inside it.
    expect(totals.unknown).toBe(0);
  });

  it('calls queued behind a long input past their deadline answer timeout busy and did nothing; the long one is whole', async () => {
    const seed = Number(process.env.E2E_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`concurrency busy: seed ${seed} (replay with E2E_SEED=${seed})`);
    const random = prng(seed);
    const tab = await open(relay, '/concurrent.html');
    const page = await relay.page(tab.path);
    const long = 'the quick brown fox jumps over the lazy dog '.repeat(40).trim();
    const field = TARGETS.find((target) => target.id === 'f0');
    if (field === undefined) throw new Error('no field f0');
    let busy = 0;
    for (let n = 1; n <= 2; n++) {
      const tally = await round(
        tab.tabId,
        page,
        (refs) => [
          { action: { target: field, text: long, args: ['type', long, '-s', refs.get('f0') ?? ''] } },
          // Started once the typing is under way, with a deadline far shorter than the rest of it.
          ...pick(random, TARGETS.filter((target) => target.kind !== 'trap' && target !== field), AGENTS - 1).map((target, index) => ({
            action: actionFor(random, target, refs.get(target.id) ?? '', `s${n}a${index}`),
            after: () => until(async () => (await pageState(page)).fields.f0 !== '', 20_000, 'the long text to start'),
            timeoutMs: 600,
          })),
        ],
        `busy round ${n} (seed ${seed})`,
      );
      busy += tally.refused;
    }
    console.log(`concurrency busy: ${busy} of ${2 * (AGENTS - 1)} queued calls gave up at their deadline`);
    expect(busy).toBeGreaterThan(0);
  });

  it('a long type cut off at its deadline types no further: the field keeps part of the text, and the tab is free again', async () => {
    const tab = await open(relay, '/concurrent.html');
    const page = await relay.page(tab.path);
    const text = await snapshot(relay, tab.tabId);
    const long = 'abcdefghij'.repeat(400);
    const cut = await relay.cli('type', long, '-s', refFor(text, /textbox "Field one"/), '--tab', String(tab.tabId), '--timeout', '1500');
    expect(cut.error, cut.stderr.slice(0, 600)).toMatchObject({ code: 'timeout', details: { mayHaveActed: true } });
    // Read once the field stops changing: keys already sent may still land, none after them.
    let value = '';
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = (await pageState(page)).fields.f0 ?? '';
      if (now === value) break;
      value = now;
    }
    expect(long.startsWith(value)).toBe(true);
    expect(value.length).toBeLessThan(long.length);
    const click = await relay.cli('click', refFor(text, /button "Alpha"/), '--tab', String(tab.tabId));
    expect(click.code, click.stderr).toBe(0);
    expect((await pageState(page)).log).toEqual(['b0']);
  });
});
