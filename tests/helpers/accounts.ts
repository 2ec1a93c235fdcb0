/**
 * The test administrator, in a module that imports nothing: the browser tests' workers take it from
 * here without loading the server's code (tests/helpers/app.ts and template.ts import all of it).
 */

/** The seeded administrator's password in test databases and browser test servers. */
export const TEST_ADMIN_PASSWORD = 'Adm1n!Passw0rd';

/** The seeded administrator of every test app and browser test server. */
export const ADMIN = { loginAccount: 'admin', password: TEST_ADMIN_PASSWORD } as const;
