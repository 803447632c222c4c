/**
 * The on-screen label of each entry field, so that a problem, a hint or an
 * audit line names what the administrator sees, not the API's field name.
 * Plain code, no DOM (tested under Node.js). A new field of the form adds its
 * label here; an unknown field falls back to its API name.
 */
const labels: Readonly<Record<string, string>> = {
  type: 'Type',
  id: 'Id',
  name: 'Name',
  enabled: 'Enabled',
  isDefault: 'Default entry',
  position: 'Order',
  appid: 'App id',
  appsecret: 'App secret',
  authorizeUrl: 'Authorization URL',
  pkce: 'PKCE',
  tokenUrl: 'Token URL',
  tokenRequest: 'Token call options',
  'tokenRequest.headers': 'Token call headers',
  'tokenRequest.bodyEncoding': 'Token call body',
  'tokenRequest.successCondition': 'Token call success condition',
  'tokenRequest.clientAuthentication': 'Client authentication',
  tokenParse: 'Token parsing',
  tokenValues: 'Token values',
  userInfoUrl: 'User-info URL',
  userInfoRequest: 'User-info call options',
  'userInfoRequest.headers': 'User-info call headers',
  'userInfoRequest.bodyEncoding': 'User-info call body',
  'userInfoRequest.successCondition': 'User-info call success condition',
  userInfoParse: 'User-info parsing',
  logoutUrl: 'Logout URL',
  timeoutMs: 'Time-out per call',
  revalidateMinutes: 'Re-check sessions every',
  revalidateGraceMinutes: 'Grace when the provider is unreachable',
  provisioning: 'Provisioning',
  'provisioning.createUsers': 'Create users at their first sign-in',
  'provisioning.updateOnSignIn': 'Update users at each sign-in',
  'provisioning.adoptExistingUsers': 'Sign in users that exist already',
  'provisioning.userIdScope': 'Users of this entry only',
  extensionUrl: 'Extension service URL',
  extensionSecret: 'Shared secret',
  extensionSettings: 'Settings',
};

/**
 * The label of an API field path: the closest labelled field, with a row
 * number for a list (`tokenRequest.headers[0].name` is `Token call headers,
 * row 1`); an unknown field keeps its API name.
 */
export function labelOf(field: string): string {
  const list = /^([^[]+)\[(\d+)\]/.exec(field);
  if (list?.[1] !== undefined) {
    const label = closestLabel(list[1]);
    if (label !== undefined) return `${label}, row ${Number(list[2]) + 1}`;
  }
  return closestLabel(field) ?? (field === '' || field === 'entry' ? 'The entry' : field);
}

function closestLabel(path: string): string | undefined {
  for (let at = path; at !== ''; at = at.includes('.') ? at.slice(0, at.lastIndexOf('.')) : '') {
    const label = labels[at];
    if (label !== undefined) return label;
  }
  return undefined;
}

/** Top-level field names, longest first, so `userInfoUrl` is not read as part of another. */
const topLevelNames = Object.keys(labels)
  .filter((name) => !name.includes('.'))
  .sort((a, b) => b.length - a.length);

/**
 * A core message with each API field name it mentions replaced by the
 * field's label (`${code} is not allowed in authorizeUrl` → `... in
 * Authorization URL`). Only whole words that are field names change, never
 * a word inside a placeholder such as `${redirect_uri}`.
 */
export function screenWords(message: string): string {
  const names = new RegExp(`(?<![\\w{$.])(${topLevelNames.join('|')})(?![\\w}])`, 'g');
  return message.replace(names, (name) => labels[name] ?? name);
}
