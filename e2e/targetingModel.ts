/**
 * The model behind targeting.e2e.ts's property test: which agent tabs are open, which tab
 * chrome-relay remembers, the ref of each tab's button, and the clicks each tab should have seen.
 * It draws random steps (navigate / snapshot / click / close / tabs, bare or with --tab, by ref or
 * by coordinates) and says what each must do — act in exactly this tab, or fail with this code.
 * Pure: the test runs the steps and feeds the outcomes back.
 */
import { createRng } from '@chrome-relay/protocol/src/testing/prng.js';

/** mulberry32 (the torture suite's generator): seeded, to replay a failing run with E2E_SEED. */
export function prng(seed: number): () => number {
  return createRng(seed).next;
}

export type Kind = 'navigate' | 'snapshot' | 'click' | 'close' | 'tabs';

export type Expectation =
  | { ok: true; tab?: number | undefined; newTab?: boolean | undefined }
  | { ok: false; code: string; reason?: string | undefined };

export interface Step {
  kind: Kind;
  /** As typed on the command line (a --tab always after the command; the test may move it in front). */
  args: string[];
  /** The same as a batch tool step. */
  tool: { tool: string; params: Record<string, unknown> };
  expect: Expectation;
  /** A click that should land: in which tab. */
  clicks?: number | undefined;
}

export interface Outcome {
  ok: boolean;
  value: unknown;
  code?: string | undefined;
  reason?: unknown;
}

interface AgentTab {
  clicks: number;
  /** The button's ref from the latest snapshot of this document. */
  ref: string | undefined;
  /** A ref of an earlier document of this tab: stale now. */
  stale: string | undefined;
}

interface SnapshotTree {
  role: string;
  name?: string;
  ref?: string;
  children?: SnapshotTree[];
}

function buttonRef(nodes: readonly SnapshotTree[]): string | undefined {
  for (const node of nodes) {
    if (node.role === 'button' && node.name === 'Act' && node.ref !== undefined) return node.ref;
    const inner = buttonRef(node.children ?? []);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

const NOT_FOUND: Expectation = { ok: false, code: 'target_not_found' };
const KINDS: readonly Kind[] = ['navigate', 'snapshot', 'snapshot', 'click', 'click', 'click', 'close', 'tabs'];

export class TabModel {
  readonly live = new Map<number, AgentTab>();
  readonly dead: number[] = [];
  remembered: number | undefined;
  readonly #random: () => number;
  readonly #url: (name: string) => string;
  #pages = 0;

  constructor(random: () => number, url: (name: string) => string) {
    this.#random = random;
    this.#url = url;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.#random() * items.length)] as T;
  }

  chance(p: number): boolean {
    return this.#random() < p;
  }

  /** Mostly keep two or three agent tabs open: reopen when fewer, close more when more. */
  kind(): Kind {
    if (this.live.size < 2 && this.chance(0.35)) return 'navigate';
    if (this.live.size > 2 && this.chance(0.25)) return 'close';
    return this.pick(KINDS);
  }

  /** A tab chrome-relay opened: it is remembered from now on. */
  adopt(tabId: number): void {
    this.live.set(tabId, { clicks: 0, ref: undefined, stale: undefined });
    this.remembered = tabId;
  }

  /** The tab a bare command acts on, if it is still open. */
  #bare(): number | undefined {
    return this.remembered !== undefined && this.live.has(this.remembered) ? this.remembered : undefined;
  }

  /** A tab to name: mostly an open agent tab, sometimes one chrome-relay already closed. */
  #someTab(): number {
    return this.dead.length > 0 && this.chance(0.15) ? this.pick(this.dead) : this.pick([...this.live.keys()]);
  }

  plan(kind: Kind): Step {
    const named = this.chance(0.5) ? this.#someTab() : undefined;
    const target = named ?? this.#bare();
    const acts = target !== undefined && this.live.has(target);
    const tabArgs = named === undefined ? [] : ['--tab', String(named)];
    const tabParam = named === undefined ? {} : { tab: named };
    // No --tab and the remembered tab closed, or a --tab naming a closed tab: nothing else is picked.
    const reached: Expectation = acts ? { ok: true, tab: target } : NOT_FOUND;
    switch (kind) {
      case 'tabs':
        // The structure (a program's --json): the check reads every tab's URL.
        return { kind, args: ['tabs', '--json'], tool: { tool: 'tabs', params: {} }, expect: { ok: true } };
      case 'navigate': {
        const url = this.#url(`agent-${++this.#pages}`);
        // A new tab: with no open remembered tab a bare navigate opens one; with one, --new-tab does.
        if (named === undefined && (target === undefined || this.live.size < 2)) {
          const asked = target !== undefined;
          return {
            kind,
            args: ['navigate', url, ...(asked ? ['--new-tab'] : [])],
            tool: { tool: 'navigate', params: { url, ...(asked ? { newTab: true } : {}) } },
            expect: { ok: true, newTab: true },
          };
        }
        // Otherwise in place: the tab named, or bare, the remembered one (as every command).
        const into = named ?? target;
        return {
          kind,
          args: ['navigate', url, ...(named === undefined ? [] : ['--tab', String(named)])],
          tool: { tool: 'navigate', params: { url, ...(named === undefined ? {} : { tab: named }) } },
          expect: into !== undefined && this.live.has(into) ? { ok: true, tab: into, newTab: false } : NOT_FOUND,
        };
      }
      case 'snapshot':
        return { kind, args: ['snapshot', '--json', ...tabArgs], tool: { tool: 'snapshot', params: tabParam }, expect: reached };
      case 'close':
        return {
          kind,
          args: named === undefined ? ['close'] : ['close', String(named)],
          tool: { tool: 'close', params: named === undefined ? {} : { tabs: [named] } },
          expect: reached,
        };
      case 'click': {
        const known = target === undefined ? undefined : this.live.get(target);
        const ref = known?.ref ?? known?.stale;
        if (known !== undefined && ref !== undefined && this.chance(0.6)) {
          // By ref: the ref carries its tab. Sometimes a --tab contradicts it (even a closed tab).
          const other = known.ref === undefined ? undefined : [...this.live.keys(), ...this.dead].find((t) => t !== target);
          const contradict = other !== undefined && this.chance(0.25) ? other : undefined;
          const expect: Expectation =
            contradict !== undefined
              ? { ok: false, code: 'target_conflict', reason: 'ref_tab_mismatch' }
              : known.ref === undefined
                ? { ok: false, code: 'stale_ref' }
                : { ok: true, tab: target };
          return {
            kind,
            args: ['click', `@${ref}`, ...(contradict === undefined ? [] : ['--tab', String(contradict)])],
            tool: { tool: 'click', params: { ref, ...(contradict === undefined ? {} : { tab: contradict }) } },
            expect,
            clicks: expect.ok ? target : undefined,
          };
        }
        return {
          kind,
          args: ['click', '--x', '5', '--y', '5', ...tabArgs],
          tool: { tool: 'click', params: { x: 5, y: 5, ...tabParam } },
          expect: reached,
          clicks: reached.ok ? target : undefined,
        };
      }
    }
  }

  /** While planning a batch: roll the remembered tab forward as if the step went as expected. */
  predict(step: Step): void {
    if (step.expect.ok && step.expect.tab !== undefined && (step.kind === 'snapshot' || step.kind === 'click')) this.remembered = step.expect.tab;
  }

  /**
   * Fold what really happened into the model. Returns the tab a navigate opened or replaced the
   * document of (the test re-finds its page), or undefined.
   */
  record(step: Step, outcome: Outcome): { tabId: number; url: string; fresh: boolean } | undefined {
    if (!outcome.ok) return undefined;
    const value = outcome.value as { tabId?: number; closed?: number[]; newTab?: boolean; tree?: SnapshotTree[]; url?: string };
    if (step.clicks !== undefined) {
      const tab = this.live.get(step.clicks);
      if (tab) tab.clicks++;
    }
    if (step.kind === 'close') {
      for (const id of value.closed ?? []) {
        this.live.delete(id);
        this.dead.push(id);
      }
      return undefined;
    }
    if (value.tabId === undefined) return undefined;
    if (step.kind === 'navigate') {
      if (value.newTab === true) {
        this.adopt(value.tabId);
        return { tabId: value.tabId, url: value.url ?? '', fresh: true };
      }
      const tab = this.live.get(value.tabId);
      if (tab) {
        // A new document: it has seen no click yet, and the old ref is stale.
        tab.clicks = 0;
        tab.stale = tab.ref ?? tab.stale;
        tab.ref = undefined;
      }
      this.remembered = value.tabId;
      return { tabId: value.tabId, url: value.url ?? '', fresh: false };
    }
    if (step.kind === 'snapshot') {
      const tab = this.live.get(value.tabId);
      if (tab) {
        const ref = buttonRef(value.tree ?? []);
        // A new snapshot of the same document keeps the button's ref; a re-snapshot after a
        // navigation issues a new one, and the older ref stays stale.
        if (ref !== tab.ref && tab.ref !== undefined) tab.stale = tab.ref;
        tab.ref = ref;
      }
    }
    this.remembered = value.tabId;
    return undefined;
  }
}
