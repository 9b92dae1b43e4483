/**
 * Per-agent leases on tabs and workspaces, in chrome.storage.session (they survive worker restarts
 * and die with the browser, like the tabs they name).
 *
 * A lease expires after `ttlMs` of idleness: every call its owner makes there pushes expiresAt
 * back, so a working agent keeps it and a crashed one leaves no lock behind. Expired leases are
 * treated as absent on every read and pruned on the next write.
 */
import { reasonedError, type RelayError, type ToolResult } from '@chrome-relay/protocol';
import type { BrowserApi } from '../browserApi.js';
import { Serial } from './serial.js';

export type LeaseInfo = ToolResult<'lease_list'>['leases'][number];

export const LEASES_KEY = 'leases';
export const DEFAULT_LEASE_TTL_MS = 10 * 60 * 1000;

export type LeaseKind = LeaseInfo['kind'];

function isLease(value: unknown): value is LeaseInfo {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    (v.kind === 'tab' || v.kind === 'workspace') &&
    typeof v.target === 'string' &&
    typeof v.owner === 'string' &&
    typeof v.ttlMs === 'number' &&
    typeof v.expiresAt === 'number'
  );
}

export function leaseConflict(lease: LeaseInfo, agent: string | undefined, now: number): RelayError {
  const what = lease.kind === 'tab' ? `Tab ${lease.target}` : `Workspace "${lease.target}"`;
  const who = agent === undefined ? 'this call has no agent identity' : `you are "${agent}"`;
  const seconds = Math.max(1, Math.ceil((lease.expiresAt - now) / 1000));
  return reasonedError(
    'target_conflict',
    'leased',
    `${what} is leased by agent "${lease.owner}" (${who}); nothing was done. It expires after ${seconds} s without activity: work in another tab (\`chrome-relay navigate <url>\` opens one), or wait; if ${lease.owner} is stuck, ask the person, who can free it from chrome-relay's toolbar popup.`,
    { phase: 'resolve', details: { owner: lease.owner, kind: lease.kind, target: lease.target, expiresAt: lease.expiresAt, agent: agent ?? null } },
  );
}

export class LeaseStore {
  readonly #browser: BrowserApi;
  readonly #now: () => number;
  readonly #serial = new Serial();

  constructor(browser: BrowserApi, now: () => number = Date.now) {
    this.#browser = browser;
    this.#now = now;
  }

  async list(): Promise<LeaseInfo[]> {
    const now = this.#now();
    return (await this.#read()).filter((lease) => lease.expiresAt > now);
  }

  async find(kind: LeaseKind, target: string): Promise<LeaseInfo | undefined> {
    return (await this.list()).find((lease) => lease.kind === kind && lease.target === target);
  }

  /** Claim (or renew) for `owner`; target_conflict when another agent holds it. */
  claim(kind: LeaseKind, target: string, owner: string, ttlMs: number): Promise<LeaseInfo> {
    return this.#serial.run(async () => {
      const now = this.#now();
      const leases = (await this.#read()).filter((lease) => lease.expiresAt > now);
      const held = leases.find((lease) => lease.kind === kind && lease.target === target);
      if (held && held.owner !== owner) throw leaseConflict(held, owner, now);
      const lease: LeaseInfo = { kind, target, owner, ttlMs, expiresAt: now + ttlMs };
      await this.#write([...leases.filter((l) => l !== held), lease]);
      return lease;
    });
  }

  /** Release `owner`'s leases matching `match`; a matching lease of another agent is target_conflict. */
  release(owner: string, match: (lease: LeaseInfo) => boolean): Promise<LeaseInfo[]> {
    return this.#serial.run(async () => {
      const now = this.#now();
      const leases = (await this.#read()).filter((lease) => lease.expiresAt > now);
      const foreign = leases.find((lease) => match(lease) && lease.owner !== owner);
      if (foreign) throw leaseConflict(foreign, owner, now);
      const released = leases.filter(match);
      await this.#write(leases.filter((lease) => !match(lease)));
      return released;
    });
  }

  /** Drop leases on something that no longer exists (a closed workspace), or that the person freed from the popup, whoever held them. */
  drop(match: (lease: LeaseInfo) => boolean): Promise<LeaseInfo[]> {
    return this.#serial.run(async () => {
      const leases = await this.#read();
      const now = this.#now();
      await this.#write(leases.filter((lease) => !match(lease)));
      return leases.filter((lease) => match(lease) && lease.expiresAt > now);
    });
  }

  /** A lease dies with its tab (tab ids are never reused, so it could only mislead `lease list`). */
  dropTab(tabId: number): Promise<LeaseInfo[]> {
    return this.drop((lease) => lease.kind === 'tab' && lease.target === String(tabId));
  }

  /** The owner acted there: push expiry back. Leases of other owners are untouched. */
  touch(owner: string, targets: readonly { kind: LeaseKind; target: string }[]): Promise<void> {
    if (targets.length === 0) return Promise.resolve();
    return this.#serial.run(async () => {
      const now = this.#now();
      let changed = false;
      const leases = (await this.#read()).filter((lease) => lease.expiresAt > now);
      for (const lease of leases) {
        if (lease.owner !== owner || !targets.some((t) => t.kind === lease.kind && t.target === lease.target)) continue;
        lease.expiresAt = now + lease.ttlMs;
        changed = true;
      }
      if (changed) await this.#write(leases);
    });
  }

  now(): number {
    return this.#now();
  }

  async #read(): Promise<LeaseInfo[]> {
    const items = await this.#browser.storageSessionGet([LEASES_KEY]);
    const value = items[LEASES_KEY];
    return Array.isArray(value) ? value.filter(isLease) : [];
  }

  async #write(leases: LeaseInfo[]): Promise<void> {
    await this.#browser.storageSessionSet({ [LEASES_KEY]: leases });
  }
}
