import { describe, expect, it } from 'vitest';
import { allows, can, POLICIES, type Policy, type Who } from '#shared/policies.ts';

const visitor: Who = null;
const member: Who = { userId: 'm', role: 'user', subscribed: false };
const subscriber: Who = { userId: 's', role: 'user', subscribed: true };
// Staff are entitled by the server's entitlement (getEntitlement), so they reach the rules subscribed.
const editor: Who = { userId: 'e', role: 'editor', subscribed: true };
const admin: Who = { userId: 'a', role: 'admin', subscribed: true };
const everyone = { visitor, member, subscriber, editor, admin };
const who = (names: string) => Object.fromEntries(Object.entries(everyone).map(([name]) => [name, names.split(' ').includes(name)]));
const answers = (ask: (person: Who) => boolean) => Object.fromEntries(Object.entries(everyone).map(([name, person]) => [name, ask(person)]));

describe('can: who may do what', () => {
  it('plays a free meditation for anyone and the rest for subscribers and staff', () => {
    expect(answers((p) => can(p, 'listen', { free: true }))).toEqual(who('visitor member subscriber editor admin'));
    expect(answers((p) => can(p, 'listen', { free: false }))).toEqual(who('subscriber editor admin'));
  });

  it('keeps new journal entries and their links for the subscription', () => {
    expect(answers((p) => can(p, 'keep-journal'))).toEqual(who('subscriber editor admin'));
  });

  it('gives the catalogue to staff and the rest of the dashboard to admins', () => {
    expect(answers((p) => can(p, 'run-catalogue'))).toEqual(who('editor admin'));
    expect(answers((p) => can(p, 'administer'))).toEqual(who('admin'));
  });

  it('lets an admin take away anyone’s role but their own', () => {
    expect(can(admin, 'revoke-role', { userId: 'e' })).toBe(true);
    expect(can(admin, 'revoke-role', { userId: 'a' })).toBe(false);
    expect(can(editor, 'revoke-role', { userId: 'm' })).toBe(false);
    expect(can(visitor, 'revoke-role', { userId: 'm' })).toBe(false);
  });
});

describe('allows: the route policies, by the same rules', () => {
  it('lets each caller through the policies it must, and no other', () => {
    const expected: Record<Policy, ReturnType<typeof who>> = {
      public: who('visitor member subscriber editor admin'),
      'public-with-viewer': who('visitor member subscriber editor admin'),
      'signed-in': who('member subscriber editor admin'),
      staff: who('editor admin'),
      admin: who('admin'),
    };
    for (const policy of Object.keys(POLICIES) as Policy[]) expect(answers((p) => allows(policy, p)), policy).toEqual(expected[policy]);
  });
});
