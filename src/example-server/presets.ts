import { defaultClient } from './defaults.js';

/** Plain entry objects in the admin API's shape (docs/entries.md). */
type ExampleEntry = Record<string, unknown>;

export interface ExampleEntries {
  /** The GET style: GET calls, the user under `user`. */
  readonly getStyle: ExampleEntry;
  /** `POST ` with JSON bodies, `{"errcode":0,"data":...}` envelopes, an `openid`. */
  readonly jsonStyle: ExampleEntry;
  /** RFC 6749: form POST, HTTP Basic, PKCE, Bearer user info. */
  readonly standard: ExampleEntry;
  /** WeCom: an application token first, the code in the user-info call, then the member's details. */
  readonly wecom: ExampleEntry;
  /** DingTalk: the callback's code is `authCode`; the token goes in a header of its own. */
  readonly dingtalk: ExampleEntry;
  /** GitHub: a form POST for the token, Bearer user info, a numeric `id` beside the `login`. */
  readonly github: ExampleEntry;
}

const errcodeZero = "JSON_GET($response, 'errcode') == 0";

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
    wecom: {
      id: 'example-wecom',
      name: 'Example (WeCom style)',
      ...credentials,
      authorizeUrl: `${base}/wecom/connect/oauth2/authorize?appid=\${appid}&redirect_uri=\${redirect_uri}&response_type=code&scope=snsapi_base&state=\${state}`,
      authorizeFragment: 'wechat_redirect',
      appToken: {
        url: `${base}/wecom/cgi-bin/gettoken?corpid=\${appid}&corpsecret=\${app_secret}`,
        successCondition: errcodeZero,
        parse: "JSON_GET($response, 'access_token')",
        expiresIn: "JSON_GET($response, 'expires_in')",
      },
      codeInUserInfo: true,
      userInfoUrl: `${base}/wecom/cgi-bin/user/getuserinfo?access_token=\${app_token}&code=\${code}`,
      userInfoRequest: { successCondition: errcodeZero },
      userInfoParse: "userId = JSON_GET($response, 'UserId')",
      userInfoValues: [{ name: 'userid', expression: "JSON_GET($response, 'UserId')" }],
      userInfoCalls: [
        {
          name: 'member',
          url: `${base}/wecom/cgi-bin/user/get?access_token=\${app_token}&userid=\${userid}`,
          successCondition: errcodeZero,
          mapping: "userName = JSON_GET($response, 'name')\nemail = JSON_GET($response, 'email')",
        },
      ],
    },
    dingtalk: {
      id: 'example-dingtalk',
      name: 'Example (DingTalk style)',
      ...credentials,
      authorizeUrl: `${base}/dingtalk/oauth2/auth?redirect_uri=\${redirect_uri}&response_type=code&client_id=\${appid}&scope=openid&state=\${state}&prompt=consent`,
      callbackCodeParameter: 'authCode',
      tokenUrl: `POST ${base}/dingtalk/v1.0/oauth2/userAccessToken?clientId=\${appid}&clientSecret=\${app_secret}&code=\${code}&grantType=authorization_code`,
      tokenParse: "JSON_GET($response, 'accessToken')",
      userInfoUrl: `${base}/dingtalk/v1.0/contact/users/me`,
      userInfoRequest: {
        headers: [{ name: 'x-acs-dingtalk-access-token', value: '${access_token}' }],
      },
      userInfoParse: [
        { attribute: 'userId', expression: "JSON_GET($response, 'unionId')" },
        { attribute: 'userName', expression: "JSON_GET($response, 'nick')" },
        { attribute: 'email', expression: "JSON_GET($response, 'email')" },
      ],
    },
    github: {
      id: 'example-github',
      name: 'Example (GitHub style)',
      ...credentials,
      authorizeUrl: `${base}/github/login/oauth/authorize?client_id=\${appid}&redirect_uri=\${redirect_uri}&state=\${state}&scope=read:user`,
      tokenUrl: `POST ${base}/github/login/oauth/access_token?client_id=\${appid}&client_secret=\${app_secret}&code=\${code}&redirect_uri=\${redirect_uri}`,
      tokenRequest: { bodyEncoding: 'form' },
      tokenParse: "JSON_GET($response, 'access_token')",
      userInfoUrl: `${base}/github/api/user`,
      userInfoRequest: { headers: [{ name: 'Authorization', value: 'Bearer ${access_token}' }] },
      userInfoParse: [
        { attribute: 'userId', expression: "JSON_GET($response, 'id')" },
        {
          attribute: 'userName',
          expression: "FIRST_NON_EMPTY(JSON_GET($response, 'name'), JSON_GET($response, 'login'))",
        },
        { attribute: 'email', expression: "JSON_GET($response, 'email')" },
      ],
    },
  };
}
