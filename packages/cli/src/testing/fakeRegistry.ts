/** A hand-written Windows registry for install, uninstall and doctor tests: default values by key, and the writes made. */
import type { Registry } from '@chrome-relay/host-files';

export interface FakeRegistry extends Registry {
  readonly values: Map<string, string>;
  /** Every writeDefault and deleteKey, in order. */
  readonly changes: string[][];
  /** Keys whose writes fail (access denied). */
  readonly refuse: Set<string>;
}

export function fakeRegistry(): FakeRegistry {
  const values = new Map<string, string>();
  const changes: string[][] = [];
  const refuse = new Set<string>();
  return {
    values,
    changes,
    refuse,
    readDefault: (key) => values.get(key) ?? null,
    writeDefault(key, value) {
      if (refuse.has(key)) throw new Error('ERROR: Access is denied.');
      changes.push(['set', key, value]);
      values.set(key, value);
    },
    deleteKey(key) {
      changes.push(['delete', key]);
      values.delete(key);
    },
  };
}
