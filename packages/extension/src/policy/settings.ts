/**
 * The person's settings from the options page, in chrome.storage.local (they survive browser
 * restarts; only the worker writes them, after validating what the page sent). Read once per worker
 * lifetime and kept in memory; a wrong shape in storage (another build) reads as the defaults.
 */
import type { BrowserApi } from '../browserApi.js';
import { MAX_REGEX_RULES, regexRuleCount } from './netRules.js';
import { parseSiteRules, ruleLines, type RuleProblem, type SiteRule } from './sitePatterns.js';

export interface Settings {
  /** Block list lines as the person wrote them (rules only: no blanks or comments). */
  blockedSites: string[];
  /** Agents may only touch agent tabs (agentTabs.ts) and tabs the person put into a "chrome-relay" tab group. On by default. */
  agentTabsOnly: boolean;
  /** Seconds without a command after which a tab's debugger session is detached; 0 = never. */
  idleDetachSeconds: number;
  /**
   * Agents that come through a bridge (another machine, a container, WSL: the call's `via`) may act. On by default:
   * such an agent reaches the browser only after the person set a bridge up.
   */
  remoteAgents: boolean;
  /** Agents may open local files (file: URLs) and act in tabs showing them. Off by default: the files are the person's. */
  agentFiles: boolean;
  /** Agents may run their own JavaScript in pages (`js`, `wait --fn`). On by default; the person may turn it off. */
  agentJs: boolean;
}

export const SETTINGS_KEY = 'settings';
export const DEFAULT_SETTINGS: Settings = { blockedSites: [], agentTabsOnly: true, idleDetachSeconds: 15, remoteAgents: true, agentFiles: false, agentJs: true };
export const MAX_IDLE_DETACH_SECONDS = 3600;
const MAX_RULES = 500;

export type SettingsCheck = { ok: true; settings: Settings } | { ok: false; problems: RuleProblem[]; field: keyof Settings };

/** Validate settings from the options page (a process edge: the page is ours, but check anyway). */
export function checkSettings(raw: unknown): SettingsCheck {
  if (typeof raw !== 'object' || raw === null) return { ok: false, field: 'blockedSites', problems: [{ line: '', problem: 'settings must be an object' }] };
  const r = raw as Record<string, unknown>;
  const lines = r.blockedSites;
  if (!Array.isArray(lines) || !lines.every((line): line is string => typeof line === 'string')) {
    return { ok: false, field: 'blockedSites', problems: [{ line: '', problem: 'the block list must be lines of text' }] };
  }
  const kept = ruleLines(lines);
  if (kept.length > MAX_RULES) return { ok: false, field: 'blockedSites', problems: [{ line: '', problem: `at most ${MAX_RULES} patterns` }] };
  const { rules, problems } = parseSiteRules(kept);
  if (problems.length > 0) return { ok: false, field: 'blockedSites', problems };
  // Chrome's request filter holds a limited number of regular expressions (host-only patterns cost none).
  if (regexRuleCount(rules) > MAX_REGEX_RULES - 8) {
    return { ok: false, field: 'blockedSites', problems: [{ line: '', problem: 'too many patterns with a path or a port for Chrome\'s request filter: merge some (a host alone blocks the whole site)' }] };
  }
  if (typeof r.agentTabsOnly !== 'boolean') return { ok: false, field: 'agentTabsOnly', problems: [{ line: '', problem: 'must be on or off' }] };
  const idle = r.idleDetachSeconds;
  if (typeof idle !== 'number' || !Number.isInteger(idle) || idle < 0 || idle > MAX_IDLE_DETACH_SECONDS) {
    return { ok: false, field: 'idleDetachSeconds', problems: [{ line: String(idle), problem: `whole seconds from 0 (never) to ${MAX_IDLE_DETACH_SECONDS}` }] };
  }
  // Switches added after the first release: absent (settings saved by an older build) reads as the default.
  const switches = { remoteAgents: r.remoteAgents ?? DEFAULT_SETTINGS.remoteAgents, agentFiles: r.agentFiles ?? DEFAULT_SETTINGS.agentFiles, agentJs: r.agentJs ?? DEFAULT_SETTINGS.agentJs };
  for (const [field, value] of Object.entries(switches)) {
    if (typeof value !== 'boolean') return { ok: false, field: field as keyof Settings, problems: [{ line: '', problem: 'must be on or off' }] };
  }
  const { remoteAgents, agentFiles, agentJs } = switches as { remoteAgents: boolean; agentFiles: boolean; agentJs: boolean };
  return { ok: true, settings: { blockedSites: kept, agentTabsOnly: r.agentTabsOnly, idleDetachSeconds: idle, remoteAgents, agentFiles, agentJs } };
}

export class SettingsStore {
  readonly #browser: Pick<BrowserApi, 'storageLocalGet' | 'storageLocalSet'>;
  #current: Promise<Settings> | undefined;
  #rules: { for: Settings; rules: SiteRule[] } | undefined;
  readonly #listeners = new Set<(settings: Settings) => void>();

  constructor(browser: Pick<BrowserApi, 'storageLocalGet' | 'storageLocalSet'>) {
    this.#browser = browser;
  }

  get(): Promise<Settings> {
    this.#current ??= this.#load().catch((error: unknown) => {
      this.#current = undefined;
      throw error;
    });
    return this.#current;
  }

  /** The parsed block list of the current settings (parsed once per change). */
  async rules(): Promise<SiteRule[]> {
    const settings = await this.get();
    if (this.#rules?.for !== settings) this.#rules = { for: settings, rules: parseSiteRules(settings.blockedSites).rules };
    return this.#rules.rules;
  }

  async save(settings: Settings): Promise<void> {
    await this.#browser.storageLocalSet({ [SETTINGS_KEY]: settings });
    this.#current = Promise.resolve(settings);
    for (const listener of [...this.#listeners]) listener(settings);
  }

  /** Called after every save (and once with the loaded settings when `get` first reads them). */
  onChange(listener: (settings: Settings) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async #load(): Promise<Settings> {
    const stored = (await this.#browser.storageLocalGet([SETTINGS_KEY]))[SETTINGS_KEY];
    const checked = checkSettings(stored);
    const settings = checked.ok ? checked.settings : { ...DEFAULT_SETTINGS };
    for (const listener of [...this.#listeners]) listener(settings);
    return settings;
  }
}
