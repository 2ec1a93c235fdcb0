/**
 * The password policy, shared by the server (which enforces it) and the forms
 * (which tick each rule live as it is met).
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 64;

export type PasswordRule = 'length' | 'lowercase' | 'uppercase' | 'digit' | 'symbol';

export const PASSWORD_RULES: readonly PasswordRule[] = ['length', 'lowercase', 'uppercase', 'digit', 'symbol'];

const TESTS: Record<PasswordRule, (password: string) => boolean> = {
  length: (p) => [...p].length >= PASSWORD_MIN_LENGTH && [...p].length <= PASSWORD_MAX_LENGTH,
  lowercase: (p) => /\p{Ll}/u.test(p),
  uppercase: (p) => /\p{Lu}/u.test(p),
  digit: (p) => /\p{Nd}/u.test(p),
  // Anything that is neither a letter, a digit nor white space counts as a symbol.
  symbol: (p) => /[^\p{L}\p{Nd}\s]/u.test(p),
};

/** Which rules the password meets, rule by rule. */
export function checkPasswordRules(password: string): Record<PasswordRule, boolean> {
  return Object.fromEntries(PASSWORD_RULES.map((rule) => [rule, TESTS[rule](password)])) as Record<PasswordRule, boolean>;
}

/** The rules the password breaks, in the order of PASSWORD_RULES; empty when it is acceptable. */
export function passwordViolations(password: string): PasswordRule[] {
  const result = checkPasswordRules(password);
  return PASSWORD_RULES.filter((rule) => !result[rule]);
}
