import type { Generated } from 'kysely';
import type { Audit, Id, Timestamp } from '../../../db/schema.js';

/** The tables of the user area; its migrations create them. */
declare module '../../../db/schema.js' {
  interface DB {
    app_user: AppUserTable;
  }
}

export interface AppUserTable extends Audit {
  id: Id;
  login_account: string;
  display_name: string;
  email: string | null;
  password_hash: string;
  language: Generated<string>;
  time_zone: Generated<string>;
  is_admin: Generated<boolean>;
  enabled: Generated<boolean>;
  // 0002_access: profile, lockout, default scope, two-step settings.
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  title: string | null;
  gender: 'male' | 'female' | null;
  company: string | null;
  department: string | null;
  position: string | null;
  telephone: string | null;
  city: string | null;
  address1: string | null;
  address2: string | null;
  address3: string | null;
  address4: string | null;
  postal: string | null;
  street: string | null;
  district: string | null;
  latitude: string | null;
  longitude: string | null;
  country: string | null;
  alias_name: string | null;
  failed_logins: Generated<number>;
  locked_until: Timestamp | null;
  default_project_id: number | null;
  default_warehouse_id: number | null;
  two_step_email: Generated<boolean>;
  two_step_sms: Generated<boolean>;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_last_counter: number | null;
  password_changed_at: Timestamp | null;
}
