import { type DirectoryGroup, type DirectoryUser, dnKey } from './directory-entries.ts';

/**
 * Each group's members with nested groups flattened: a member DN naming another synced group brings
 * that group's members in, to any depth. Each group's walk keeps the set of groups it has visited,
 * so a cycle (A in B in A) ends instead of looping. It works on every directory, where Active
 * Directory's LDAP_MATCHING_RULE_IN_CHAIN filter works only on AD and costs a search per group.
 */
export function flattenGroups(groups: readonly DirectoryGroup[], users: readonly DirectoryUser[]): Map<string, Set<string>> {
  const userByDn = new Map(users.map((user) => [dnKey(user.dn), user.id]));
  const userByLogin = new Map(users.filter((user) => user.login).map((user) => [(user.login as string).toLowerCase(), user.id]));
  const groupByDn = new Map(groups.map((group) => [dnKey(group.dn), group]));

  const direct = new Map(
    groups.map((group) => {
      const members = new Set<string>();
      const nested: DirectoryGroup[] = [];
      for (const login of group.memberLogins) {
        const id = userByLogin.get(login.toLowerCase());
        if (id) members.add(id);
      }
      for (const dn of group.memberDns) {
        const key = dnKey(dn);
        const user = userByDn.get(key);
        if (user) members.add(user);
        const inner = groupByDn.get(key);
        if (inner) nested.push(inner);
      }
      return [group.id, { members, nested }];
    }),
  );

  return new Map(
    groups.map((group) => {
      const members = new Set<string>();
      const visited = new Set([group.id]);
      const queue = [group];
      for (let next = queue.pop(); next; next = queue.pop()) {
        const { members: own, nested } = direct.get(next.id) as { members: Set<string>; nested: DirectoryGroup[] };
        for (const id of own) members.add(id);
        for (const inner of nested)
          if (!visited.has(inner.id)) {
            visited.add(inner.id);
            queue.push(inner);
          }
      }
      return [group.id, members];
    }),
  );
}
