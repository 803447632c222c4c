import { defaultClient } from './defaults.js';

/** Plain entry objects in the admin API's shape (docs/entries.md). */
export type ExampleEntry = Record<string, unknown>;

export interface ExampleEntries {
  /** The GET style: GET calls, the user under `user`. */
  readonly getStyle: ExampleEntry;
  /** `POST ` with JSON bodies, `{"errcode":0,"data":...}` envelopes, an `openid`. */
  readonly jsonStyle: ExampleEntry;
  /** RFC 6749: form POST, HTTP Basic, PKCE, Bearer user info. */
  readonly standard: ExampleEntry;
}

const jsonUserMapping = [
  '# The example server answers {"errcode":0,"data":{"id","name","mail","dept"}}',
  "userId = JSON_PATH($response, 'data.id')",
  "userName = JSON_PATH($response, 'data.name')",
  "email = JSON_PATH($response, 'data.mail')",
  "department = JSON_PATH($response, 'data.dept')",
].join('\n');

/**
 * Entries for the example server at `baseUrl`, as data: the demo mode
 * provisions them, and the gateway's integration tests start from them.
 */
export function exampleEntries(
  baseUrl: string,
  client: { readonly appid: string; readonly secret: string } = defaultClient,
): ExampleEntries {
  const base = baseUrl.replace(/\/+$/, '');
  const credentials = { enabled: true, appid: client.appid, appsecret: client.secret };
  const logoutUrl = `${base}/logout?redirect_uri=\${redirect_uri}`;
  return {
    getStyle: {
      id: 'example-get',
      name: 'Example (GET style)',
      ...credentials,
      authorizeUrl: `${base}/get/authorize?appid=\${appid}&redirect_uri=\${redirect_uri}&state=\${state}`,
      tokenUrl: `${base}/get/token?appid=\${appid}&secret=\${app_secret}&code=\${code}&redirect_uri=\${redirect_uri}`,
      tokenParse: "JSON_GET($response, 'access_token')",
      logoutUrl,
      userInfoUrl: `${base}/get/userinfo?access_token=\${access_token}`,
    },
    jsonStyle: {
      id: 'example-json',
      name: 'Example (POST JSON style)',
      ...credentials,
      authorizeUrl: `${base}/json/authorize?appid=\${appid}&redirect_uri=\${redirect_uri}&state=\${state}`,
      tokenUrl: `POST ${base}/json/token?grant_type=authorization_code&appid=\${appid}&secret=\${app_secret}&code=\${code}&redirect_uri=\${redirect_uri}`,
      tokenRequest: { successCondition: "JSON_GET($response, 'errcode') == 0" },
      tokenParse: "JSON_PATH($response, 'data.access_token')",
      tokenValues: [{ name: 'openid', expression: "JSON_PATH($response, 'data.openid')" }],
      logoutUrl,
      userInfoUrl: `POST ${base}/json/userinfo?access_token=\${access_token}&openid=\${openid}`,
      userInfoRequest: { successCondition: "JSON_GET($response, 'errcode') == 0" },
      userInfoParse: jsonUserMapping,
    },
    standard: {
      id: 'example-standard',
      name: 'Example (standard OAuth2)',
      ...credentials,
      authorizeUrl: `${base}/oauth2/authorize?response_type=code&client_id=\${appid}&redirect_uri=\${redirect_uri}&state=\${state}`,
      pkce: true,
      tokenUrl: `POST ${base}/oauth2/token?grant_type=authorization_code&code=\${code}&redirect_uri=\${redirect_uri}`,
      tokenRequest: { bodyEncoding: 'form', clientAuthentication: 'basic' },
      tokenParse: "JSON_GET($response, 'access_token')",
      logoutUrl,
      userInfoUrl: `${base}/oauth2/userinfo`,
      userInfoRequest: { headers: [{ name: 'Authorization', value: 'Bearer ${access_token}' }] },
      userInfoParse: [
        { attribute: 'userId', expression: "JSON_GET($response, 'sub')" },
        { attribute: 'userName', expression: "JSON_GET($response, 'name')" },
        { attribute: 'email', expression: "JSON_GET($response, 'email')" },
      ],
    },
  };
}
