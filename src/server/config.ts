import path from 'node:path';

/** Typed server configuration, read once from the environment and validated at start. */
export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** A read replica for report queries, exports and dashboards (REPORT_DATABASE_URL); the primary when unset. */
  reportDatabaseUrl: string | undefined;
  dataDir: string;
  adminPassword: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  publicUrl: string | undefined;
  bodyLimitBytes: number;
  sessionDays: number;
  trustBrowserDays: number;
  /** Minutes an account stays locked after 10 wrong passwords in a row. */
  loginLockMinutes: number;
  demoData: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  smsUrl: string | undefined;
  distDir: string;
  /** Largest total of the attachments of one record (500M). */
  attachmentLimitBytes: number;
  /** Days a finished file of the download center is kept. */
  downloadDays: number;
  /** Whether this node runs the job scheduler and job runs (JOB_SCHEDULER); tests switch it off unless they need it. */
  jobScheduler: boolean;
  /** Tile URL of the route map ({z}/{x}/{y}); unset draws a plain coordinate canvas (docs/transport.md). */
  mapTileUrl: string | undefined;
}

/** Raised for a wrong environment variable; main prints its message as one line and exits. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** Every variable the server reads, with its meaning; the README's table is checked against it. */
export const ENV_VARIABLES = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'REPORT_DATABASE_URL',
  'DATA_DIR',
  'ADMIN_PASSWORD',
  'LOG_LEVEL',
  'PUBLIC_URL',
  'BODY_LIMIT_MB',
  'SESSION_DAYS',
  'TRUST_BROWSER_DAYS',
  'LOGIN_LOCK_MINUTES',
  'DEMO_DATA',
  'SMTP_URL',
  'MAIL_FROM',
  'SMS_URL',
  'DIST_DIR',
  'ATTACHMENT_LIMIT_MB',
  'DOWNLOAD_DAYS',
  'JOB_SCHEDULER',
  'MAP_TILE_URL',
] as const;

type Env = Record<string, string | undefined>;

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number from ${min} to ${max}, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${env[name]}"`);
}

function readUrl(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(url.protocol)) throw new ConfigError(name, `must start with ${protocols.join(' or ')}`);
  return raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): AppConfig {
  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as AppConfig['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const adminPassword = env.ADMIN_PASSWORD === '' ? undefined : env.ADMIN_PASSWORD;
  return {
    port: readInt(env, 'PORT', 8080, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    databaseUrl: readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    reportDatabaseUrl: readUrl(env, 'REPORT_DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: path.resolve(env.DATA_DIR?.trim() || './data'),
    adminPassword,
    logLevel,
    publicUrl: readUrl(env, 'PUBLIC_URL', ['http:', 'https:']),
    bodyLimitBytes: readInt(env, 'BODY_LIMIT_MB', 10, 1, 500) * 1024 * 1024,
    sessionDays: readInt(env, 'SESSION_DAYS', 7, 1, 365),
    trustBrowserDays: readInt(env, 'TRUST_BROWSER_DAYS', 30, 1, 365),
    loginLockMinutes: readInt(env, 'LOGIN_LOCK_MINUTES', 15, 1, 1440),
    demoData: readBool(env, 'DEMO_DATA', true),
    smtpUrl: readUrl(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM?.trim() || 'WMS <no-reply@localhost>',
    smsUrl: readUrl(env, 'SMS_URL', ['http:', 'https:']),
    mapTileUrl: env.MAP_TILE_URL?.trim() || undefined,
    distDir: path.resolve(env.DIST_DIR?.trim() || './dist'),
    attachmentLimitBytes: readInt(env, 'ATTACHMENT_LIMIT_MB', 500, 1, 500) * 1024 * 1024,
    downloadDays: readInt(env, 'DOWNLOAD_DAYS', 7, 1, 365),
    jobScheduler: readBool(env, 'JOB_SCHEDULER', true),
  };
}
