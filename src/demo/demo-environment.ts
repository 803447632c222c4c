/** The local administrator's password the demo sets on its first start (README). */
export const demoAdminPassword = 'demo-admin-password';

/**
 * What `npm run demo` sets itself, under whatever the environment sets: its
 * own data folder, its administrator's password, and the loopback allowance
 * without which its entries could not call the example server (and
 * extension) on this machine.
 */
export function demoEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    SSOGATE_DATA_DIR: './data-demo',
    SSOGATE_ADMIN_PASSWORD: demoAdminPassword,
    SSOGATE_OUTBOUND_ALLOW: '127.0.0.1',
    ...env,
  };
}

/**
 * The settings kept in the demo's data folder for the commands run on it
 * later (`ssogate doctor`): the outbound allowance its entries need.
 */
export function demoStoredSettings(env: NodeJS.ProcessEnv): Record<string, string> {
  const allow = env.SSOGATE_OUTBOUND_ALLOW;
  return allow === undefined ? {} : { SSOGATE_OUTBOUND_ALLOW: allow };
}
