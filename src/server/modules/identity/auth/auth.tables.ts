import type { Generated } from 'kysely';
import type { Id, Timestamp } from '../../../db/schema.js';

/** The tables of the auth area; its migrations create them. */
declare module '../../../db/schema.js' {
  interface DB {
    user_session: UserSessionTable;
    two_step_challenge: TwoStepChallengeTable;
    trusted_browser: TrustedBrowserTable;
    verification_code: VerificationCodeTable;
    login_failure: LoginFailureTable;
    user_known_address: UserKnownAddressTable;
  }
}

export interface UserSessionTable {
  id: Id;
  token_hash: string;
  user_id: number;
  simulated_user_id: number | null;
  project_id: number | null;
  warehouse_id: number | null;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  last_seen_at: Generated<Date>;
  revoked_at: Timestamp | null;
  ip: string | null;
  user_agent: string | null;
}

export interface TwoStepChallengeTable {
  id: Id;
  challenge_hash: string;
  user_id: number;
  method: 'sms' | 'email' | 'totp' | null;
  code_hash: string | null;
  code_expires_at: Timestamp | null;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface TrustedBrowserTable {
  id: Id;
  token_hash: string;
  user_id: number;
  label: string | null;
  ip: string | null;
  created_at: Generated<Date>;
  last_used_at: Timestamp | null;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface VerificationCodeTable {
  id: Id;
  purpose: 'register' | 'reset';
  email: string;
  user_id: number | null;
  code_hash: string;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** Migration 0051: wrong sign-ins by address and account name. */
export interface LoginFailureTable {
  id: Id;
  ip: string;
  login_account: string;
  at: Generated<Date>;
}

/** Migration 0220: the addresses an account has signed in from, kept beyond its sessions. */
export interface UserKnownAddressTable {
  user_id: number;
  ip: string;
  first_seen_at: Generated<Date>;
  last_seen_at: Generated<Date>;
}
