/**
 * Answers of the identity area's account routes that the sign-in screens and the account dialogs
 * read: the server's services return these types and the screens call `api<...>` with them, so the
 * two sides cannot drift apart. (Sign-in, the session and the menu are in `api-types.ts`.)
 */
import type { TwoStepMethod } from './api-types';

/** `POST /api/user/AuthorizationCode/send`: which method the code went by and where, masked. */
export interface CodeSent {
  method: TwoStepMethod;
  /** The masked e-mail address or telephone; null for the authenticator app. */
  sentTo: string | null;
}

/** `POST /api/user/signup`: the account just registered. */
export interface SignupAnswer {
  uid: number;
  loginAccount: string;
}

/** `GET /api/user/twoStep` and the calls that change it: which methods are on, and where codes go. */
export interface TwoStepSettings {
  email: boolean;
  sms: boolean;
  totp: boolean;
  emailAddress: string | null;
  telephone: string | null;
}

/** `POST /api/user/twoStep/totp/setup`: the new authenticator secret, not yet switched on. */
export interface TotpSetup {
  secret: string;
  /** The `otpauth://` address an authenticator app reads from the QR code. */
  uri: string;
}

/** One entry of `GET /api/user/trustedBrowsers`. */
export interface TrustedBrowser {
  id: number;
  label: string | null;
  ip: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string;
}
