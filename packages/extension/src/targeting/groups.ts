/** Named native tab groups: a group's name is its title, which must identify exactly one group. */
import { reasonedError, RelayError } from '@chrome-relay/protocol';
import type { GroupInfo, OrganizeApi } from '../organizeApi.js';

export function groupNotFound(name: string): RelayError {
  return new RelayError('target_not_found', `No tab group is named "${name}"; run \`chrome-relay group list\`, or create it with \`chrome-relay group create ${name} <tab…>\`.`, {
    phase: 'resolve',
    details: { group: name },
  });
}

/** The one group titled `name`, or undefined. Two groups with that title → target_conflict (never guess). */
export async function findGroup(organize: OrganizeApi, name: string): Promise<GroupInfo | undefined> {
  const groups = (await organize.queryGroups(name)).filter((g) => g.title === name);
  if (groups.length > 1) {
    throw reasonedError('target_conflict', 'ambiguous_name', `${groups.length} tab groups are named "${name}"; rename one in the browser so the name is unique.`, {
      phase: 'resolve',
      details: { group: name, groupIds: groups.map((g) => g.id) },
    });
  }
  return groups[0];
}

export async function getGroup(organize: OrganizeApi, name: string): Promise<GroupInfo> {
  const group = await findGroup(organize, name);
  if (!group) throw groupNotFound(name);
  return group;
}
