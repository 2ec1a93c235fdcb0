/**
 * Shapes of the calls that the shell and the sign-in screens share with the server
 * ("User and auth"). Both sides import these; the server's route schemas must
 * answer exactly these shapes.
 */
import type { Language } from './languages';

export interface LoginRequest {
  loginAccount: string;
  password: string;
  /** A trusted-browser token from an earlier "trust this browser", to skip two-step verification. */
  trustedBrowserToken?: string;
}

export interface SessionUserInfo {
  uid: number;
  loginAccount: string;
  displayName: string;
  language: Language;
}

export interface LoginSuccess {
  token: string;
  /** ISO time the session ends. */
  expiresAt: string;
  user: SessionUserInfo;
  /** Present when the user asked to trust this browser during the two-step challenge. */
  trustedBrowserToken?: string;
}

export type TwoStepMethod = 'sms' | 'email' | 'totp';

export interface TwoStepChallenge {
  twoStep: { challengeId: string; methods: TwoStepMethod[] };
}

export type LoginAnswer = LoginSuccess | TwoStepChallenge;

export interface ScopeOption {
  id: number;
  code: string;
  name: string;
}

/** `GET /api/user/status`: who is signed in and in which scope. */
export interface UserStatus {
  user: SessionUserInfo & { email: string | null; timeZone: string; isAdmin: boolean };
  organization: ScopeOption | null;
  project: ScopeOption | null;
  warehouse: ScopeOption | null;
  /** The projects and warehouses the user may switch to. */
  projects: ScopeOption[];
  warehouses: ScopeOption[];
  /** Left or top navigation, from the warehouse's setting, else the project's. */
  navLayout: 'left' | 'top';
  /** Set while an administrator simulates this user: who the administrator is. */
  simulatedBy: { uid: number; loginAccount: string } | null;
  /** False when the account has no rights at all: the shell shows "contact an administrator". */
  hasRights: boolean;
  expiresAt: string;
}

/** One entry of `GET /api/user/menu`, built from the user's rights. */
export interface MenuItem {
  /** Module code, also the right's module, e.g. `sku`. */
  code: string;
  /** Locale key of the title, e.g. `menu.sku`. */
  titleKey: string;
  /** Child route under /page (e.g. `/sku`); absent for a group. */
  route?: string;
  children?: MenuItem[];
}

export interface MenuAnswer {
  items: MenuItem[];
}

/** `POST /api/user/project` and `/api/user/whs`: the project or warehouse to switch to, by id or code. */
export interface ScopeSwitchRequest {
  id?: number;
  code?: string;
}

/** A notification as its reader sees it, in the reader's language (`GET /api/notification/latest`, `/list`). */
export interface NotificationView {
  id: number;
  category: string;
  title: string;
  body: string | null;
  link: string | null;
  read: boolean;
  createdAt: string;
}

/**
 * The home page's charts of the session's project in its warehouse (`GET /api/inventory/activity`):
 * quantities received and shipped per day of the last days, oldest first, and on hand per owner.
 * Quantities are decimal strings.
 */
export interface StockActivity {
  days: { day: string; received: string; shipped: string }[];
  owners: { owner: string; onHand: string }[];
}

/** The open work of one kind in the session's warehouse, by status (`GET /api/home/summary`). */
export interface WorkSummary {
  /** The area's kind of work (its manifest's `homeItems`), e.g. `asn`. */
  kind: string;
  /** False while no table of this kind exists yet. */
  available: boolean;
  total: number;
  byStatus: { status: string; count: number }[];
  /** The text key prefix of its statuses. */
  statusTexts: string;
  /** The page route that lists this work: the count opens it, a status chip opens it filtered. */
  listRoute?: string;
}
