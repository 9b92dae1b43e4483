/**
 * Named native tab groups: a group's name is its title, which must identify exactly one group — among the groups the
 * agent may see. Every road that names a group (`--group`, group add/close/create, a ref's scope) asks here, so the
 * person's groups are invisible by name exactly as `group list` hides them: a name only the person's groups carry
 * resolves like a name nobody uses (same code, message and details), and `group create` with it makes the agent a group
 * of its own (Chrome allows two groups with one title) without touching theirs.
 */
import { reasonedError, RelayError } from '@chrome-relay/protocol';
import type { GroupInfo, OrganizeApi } from '../organizeApi.js';

/**
 * Whether the agent may see a group with these tabs (the person's limits decide: policy/policy.ts `seesGroup`, the
 * same rule `group list` applies — every tab of it usable by the agent).
 */
export type SeesGroup = (tabIds: readonly number[]) => Promise<boolean>;

/** A group the agent may see, with its tabs in strip order as they were when it was found. */
export interface SeenGroup extends GroupInfo {
  tabIds: readonly number[];
}

export interface GroupBook {
  /** The one visible group titled `name`, or undefined. Two visible groups with that title → target_conflict (never guess). */
  find(name: string): Promise<SeenGroup | undefined>;
  /** As find, and target_not_found when there is none. */
  get(name: string): Promise<SeenGroup>;
}

export function groupNotFound(name: string): RelayError {
  return new RelayError('target_not_found', `No tab group is named "${name}"; run \`chrome-relay group list\`, or create it with \`chrome-relay group create ${name} <tab…>\`.`, {
    phase: 'resolve',
    details: { group: name },
  });
}

export function groupBook(organize: Pick<OrganizeApi, 'queryGroups' | 'groupTabIds'>, sees: SeesGroup): GroupBook {
  const find = async (name: string): Promise<SeenGroup | undefined> => {
    const seen: SeenGroup[] = [];
    // Chrome's title query is a pattern: only an exact title names a group.
    for (const group of (await organize.queryGroups(name)).filter((g) => g.title === name)) {
      const tabIds = await organize.groupTabIds(group.id);
      if (await sees(tabIds)) seen.push({ ...group, tabIds });
    }
    if (seen.length > 1) {
      throw reasonedError('target_conflict', 'ambiguous_name', `${seen.length} tab groups are named "${name}"; rename one in the browser so the name is unique.`, {
        phase: 'resolve',
        details: { group: name, groupIds: seen.map((g) => g.id) },
      });
    }
    return seen[0];
  };
  return {
    find,
    async get(name) {
      const group = await find(name);
      if (!group) throw groupNotFound(name);
      return group;
    },
  };
}
