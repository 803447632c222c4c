/**
 * Spellings of `/admin` (and of paths below it) that some server or
 * framework behind a gateway reads as `/admin`: each must be judged by the
 * `/admin` rule or refused, never let through as another path.
 */
export const adminSpellings: readonly string[] = [
  '/admin',
  '/ADMIN',
  '/admin.',
  '/admin%20',
  '/admin%2e',
  '/admin..;/',
  '/admin;x',
  '/%2561dmin',
  '/%61dmin',
  '//admin',
  '/./admin',
  '/x/../admin',
  '/x/%2e%2e/admin',
  '/x/..%2fadmin',
  '/admin%2f..',
  '/admin%5c..',
  '/x\\..\\admin',
  '/admin%00',
  '/admin%09',
  '/admin/%2e%2e/admin/users',
  '/admin/users',
];
