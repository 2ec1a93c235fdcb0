import { AppError } from '../../../../common/errors.js';
import { insertAuditLog } from '../access/access.repository.js';
import { assertEmail } from '../auth/account.service.js';
import { assertNewPassword } from '../auth/password-rules.js';
import { hashPassword } from '../auth/password.js';
import { revokeUserSessions } from '../auth/session.repository.js';
import { defineWriter } from '../../area.js';
import { assertCoordinates } from './user-coordinates.js';
import { findUserByEmail, findUserByLogin, grantProject } from './user.repository.js';

/**
 * The account rules of the /user screen (through the engine): a new user needs a password that
 * meets the policy, stored only as its argon2id hash; a changed password or a
 * disabled account ends the user's sessions; login names and e-mail addresses stay unique; only an
 * administrator makes or edits administrators; nobody disables their own account; a user made by a
 * project's administrator belongs to that project; accounts are disabled, never deleted.
 */
export const userAccountWriter = defineWriter({
  name: 'user.account',

  async beforeSave({ trx, user, old, values, unstored }) {
    const password = typeof unstored.password === 'string' && unstored.password !== '' ? unstored.password : undefined;
    if (!old && !password) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'password', code: 'FIELD_REQUIRED' }]);
    if (password) {
      assertNewPassword(password, password, 'password');
      values.password_hash = await hashPassword(password);
      values.password_changed_at = new Date().toISOString();
    }
    if (!user.isAdmin && (values.is_admin === true || old?.is_admin === true)) throw new AppError('FORBIDDEN', { right: 'admin' });
    if (old && old._key === (user.simulatedBy ?? user.userId) && values.enabled === false) {
      throw new AppError('USER_SELF_DISABLE');
    }
    assertCoordinates(values);
    if (typeof values.login_account === 'string') {
      const login = values.login_account.trim();
      values.login_account = login;
      const same = await findUserByLogin(trx, login);
      if (same && (!old || Number(same.id) !== Number(old._key))) throw new AppError('USER_EXISTS', {}, [{ field: 'login_account', code: 'USER_EXISTS' }]);
    }
    if (typeof values.email === 'string' && values.email !== '') {
      const email = assertEmail(values.email);
      values.email = email;
      const same = await findUserByEmail(trx, email);
      if (same && (!old || Number(same.id) !== Number(old._key))) throw new AppError('USER_EXISTS', {}, [{ field: 'email', code: 'USER_EXISTS' }]);
    }
  },

  async afterSave({ trx, user, old, row, unstored }) {
    const uid = Number(row._key);
    if (!old && !user.isAdmin && user.projectId !== null) await grantProject(trx, uid, user.projectId);
    const passwordChanged = typeof unstored.password === 'string' && unstored.password !== '';
    if (old && (passwordChanged || (old.enabled === true && row.enabled === false))) await revokeUserSessions(trx, uid);
    await insertAuditLog(trx, { actorUserId: user.userId, action: old ? 'user.edit' : 'user.add', targetUserId: uid });
  },

  async beforeDelete() {
    // Sessions, audit entries and documents name the account: it is disabled instead.
    throw new AppError('DELETE_CANCEL_NOT_ALLOWED');
  },
});
