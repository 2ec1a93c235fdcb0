import { Type } from 'typebox';
import type { EngineRow } from '../../../../../engine/server/index.js';
import { defineBehaviour } from '../../area.js';
import { previewUserBatch, setUsersEnabledBy, signOutUsersBy } from './user.service.js';

const NoInputs = Type.Object({});

function uids(rows: EngineRow[]): number[] {
  return rows.map((row) => Number(row._key));
}

/**
 * The batch buttons of the user list (/user): Enable, Disable and Sign out now, each on the selected
 * users in one transaction, with the page's edit right (the behaviour's `right: edit`). Their
 * confirmation names how many users; disabling or signing out one's own account is refused.
 */
/** Enable or Disable: sets the selected users' enabled flag and tells how many changed. */
function setEnabledBehaviour(action: 'enable' | 'disable') {
  return defineBehaviour({
    name: `identity.user.${action}`,
    inputs: NoInputs,
    async run({ trx, user, rows }) {
      const { updated } = await setUsersEnabledBy(trx, user, uids(rows), action === 'enable');
      return { result: { updated }, messageCode: `md.behaviour.user.${action}Done`, messageParams: { count: updated } };
    },
    preview: ({ user, rows }) => Promise.resolve(previewUserBatch(user, uids(rows), action)),
  });
}

export const enableUsersBehaviour = setEnabledBehaviour('enable');
export const disableUsersBehaviour = setEnabledBehaviour('disable');

export const signOutUsersBehaviour = defineBehaviour({
  name: 'identity.user.signOut',
  inputs: NoInputs,
  async run({ trx, user, rows }) {
    const result = await signOutUsersBy(trx, user, uids(rows));
    return { result, messageCode: 'md.behaviour.user.signOutDone', messageParams: { count: result.users, sessions: result.ended } };
  },
  preview: ({ user, rows }) => Promise.resolve(previewUserBatch(user, uids(rows), 'signOut')),
});

export const userBehaviours = [enableUsersBehaviour, disableUsersBehaviour, signOutUsersBehaviour];
