import { AppError, type ErrorCode, type FieldError } from '../../../../common/errors.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordViolations, type PasswordRule } from '../../../../common/password-policy.js';

const RULE_CODES: Record<PasswordRule, (password: string) => ErrorCode> = {
  length: (p) => ([...p].length < PASSWORD_MIN_LENGTH ? 'PASSWORD_TOO_SHORT' : 'PASSWORD_TOO_LONG'),
  lowercase: () => 'PASSWORD_NO_LOWERCASE',
  uppercase: () => 'PASSWORD_NO_UPPERCASE',
  digit: () => 'PASSWORD_NO_DIGIT',
  symbol: () => 'PASSWORD_NO_SYMBOL',
};

/**
 * Checks a new password and its confirmation: every broken rule is reported at
 * once, each with its own code, under PASSWORD_POLICY; then the two entries must match.
 */
export function assertNewPassword(password: string, confirmation: string, field = 'newPassword'): void {
  const broken = passwordViolations(password);
  if (broken.length) {
    const details: FieldError[] = broken.map((rule) => ({
      field,
      code: RULE_CODES[rule](password),
      params: { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH },
    }));
    throw new AppError('PASSWORD_POLICY', {}, details);
  }
  if (password !== confirmation) throw new AppError('PASSWORD_MISMATCH', {}, [{ field: 'confirmPassword', code: 'PASSWORD_MISMATCH' }]);
}
