import { describe, expect, it } from 'vitest';
import { assertCatalogued, fromAction } from './record-event.ts';

describe('the activity catalogue guard', () => {
  it('refuses, under test, an activity made at run time that the catalogue lacks', () => {
    expect(() => assertCatalogued('member.teleported')).toThrow(/not in the activity catalogue/);
    expect(() => assertCatalogued('member.invited')).not.toThrow();
  });

  it('names an action’s component from the catalogue', () => {
    expect(fromAction('scim_token_rotated')).toEqual({ activity: 'scim.token_rotated', component: 'scim' });
    expect(fromAction('licence_assigned')).toEqual({ activity: 'licence.assigned', component: 'members' });
  });
});
