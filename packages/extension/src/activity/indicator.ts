/**
 * The toolbar icon tells the person, at a glance, what agents are doing:
 *   grey icon            the native host is not connected (no CLI can reach this browser)
 *   normal icon          connected, idle
 *   badge "ON" (green)   an agent acted in the last ACTIVE_MS
 *   badge "||" (amber)   paused by the person (wins over the rest)
 * Rendering is idempotent: every input change recomputes the whole look.
 */

export const ACTIVE_MS = 4_000;

export type IconVariant = 'normal' | 'grey';

export interface ActionLook {
  icon: IconVariant;
  badge: string;
  badgeColor: string;
  title: string;
}

/** What the indicator needs from chrome.action; faked in tests. */
export interface ActionApi {
  show(look: ActionLook): Promise<void>;
}

export interface IndicatorInputs {
  connected: boolean;
  paused: boolean;
  /** Epoch ms the last agent call ended, if any. */
  lastActivityAt: number | undefined;
  now: number;
}

export function lookOf(inputs: IndicatorInputs): ActionLook {
  const icon: IconVariant = inputs.connected ? 'normal' : 'grey';
  const connection = inputs.connected ? 'connected' : 'not connected (run `chrome-relay doctor`)';
  if (inputs.paused) {
    return { icon, badge: '||', badgeColor: '#b06000', title: `chrome-relay: paused by you — agents are refused until you press Resume (${connection})` };
  }
  const active = inputs.lastActivityAt !== undefined && inputs.now - inputs.lastActivityAt < ACTIVE_MS;
  if (active) return { icon, badge: 'ON', badgeColor: '#188038', title: `chrome-relay: an agent is acting (${connection})` };
  return { icon, badge: '', badgeColor: '#188038', title: `chrome-relay: ${connection}, idle` };
}

export class Indicator {
  readonly #api: ActionApi;
  readonly #now: () => number;
  #inputs: Omit<IndicatorInputs, 'now'> = { connected: false, paused: false, lastActivityAt: undefined };
  #shown: string | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(api: ActionApi, now: () => number = Date.now) {
    this.#api = api;
    this.#now = now;
  }

  update(change: Partial<Omit<IndicatorInputs, 'now'>>): void {
    this.#inputs = { ...this.#inputs, ...change };
    this.#render();
  }

  #render(): void {
    const now = this.#now();
    const look = lookOf({ ...this.#inputs, now });
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const last = this.#inputs.lastActivityAt;
    // The "acting" badge goes by itself once the agent has been quiet for ACTIVE_MS.
    if (look.badge === 'ON' && last !== undefined) this.#timer = setTimeout(() => this.#render(), Math.max(0, last + ACTIVE_MS - now) + 50);
    const key = JSON.stringify(look);
    if (key === this.#shown) return;
    this.#shown = key;
    this.#api.show(look).catch((error: unknown) => {
      this.#shown = undefined;
      console.error('chrome-relay: updating the toolbar icon failed', error);
    });
  }
}

/** chrome.action behind ActionApi. Icons are the PNGs build.mjs writes into icons/. */
export const chromeActionApi: ActionApi = {
  async show(look) {
    const suffix = look.icon === 'grey' ? '-grey' : '';
    await chrome.action.setIcon({ path: { 16: `icons/icon16${suffix}.png`, 32: `icons/icon32${suffix}.png` } });
    await chrome.action.setBadgeText({ text: look.badge });
    await chrome.action.setBadgeBackgroundColor({ color: look.badgeColor });
    await chrome.action.setTitle({ title: look.title });
  },
};
