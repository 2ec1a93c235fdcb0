import { AppError } from '../../../../common/errors.js';
import type { RightName } from '../../../../common/rights.js';
import { hasRight } from '../access/rights.js';
import { defineWriter } from '../../area.js';

/**
 * The verbs a role grants (the "Other rights" tab of /role, through the engine): a
 * non-administrator hands out, and takes back, only verbs it holds itself, so editing roles never
 * raises anybody above the editor.
 */
export const roleVerbWriter = defineWriter({
  name: 'role.verb',

  async beforeSave({ trx, user, values, merged }) {
    const value = values.right_code ?? merged.right_code;
    const right = typeof value === 'string' ? value : '';
    if (!(await hasRight(trx, user, right as RightName))) throw new AppError('FORBIDDEN', { right });
  },

  async beforeDelete({ trx, user, old }) {
    const right = typeof old.right_code === 'string' ? old.right_code : '';
    if (!(await hasRight(trx, user, right as RightName))) throw new AppError('FORBIDDEN', { right });
  },
});
