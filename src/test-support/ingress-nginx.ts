import { existsSync } from 'node:fs';
import { nginxPreamble, nginxTempPaths } from './nginx.js';

/** The annotations of an Ingress that decide ingress-nginx's external authentication. */
export interface IngressAuth {
  /** nginx.ingress.kubernetes.io/auth-url */
  readonly url: string;
  /** nginx.ingress.kubernetes.io/auth-signin, if any */
  readonly signIn?: string;
  /** nginx.ingress.kubernetes.io/auth-signin-redirect-param; `rd` by default */
  readonly signInRedirectParam: string;
  /** nginx.ingress.kubernetes.io/auth-response-headers */
  readonly responseHeaders: readonly string[];
}

const prefix = 'nginx.ingress.kubernetes.io/';

/** The external authentication an Ingress's annotations ask for. */
export function ingressAuthOf(annotations: Readonly<Record<string, string>>): IngressAuth {
  const url = annotations[`${prefix}auth-url`];
  if (url === undefined) throw new Error('the Ingress has no auth-url annotation');
  const signIn = annotations[`${prefix}auth-signin`];
  return {
    url,
    ...(signIn === undefined ? {} : { signIn }),
    signInRedirectParam: annotations[`${prefix}auth-signin-redirect-param`] ?? 'rd',
    responseHeaders: (annotations[`${prefix}auth-response-headers`] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  };
}

/**
 * ingress-nginx's buildAuthSignURL: the sign-in URL with the redirect
 * parameter added (`$scheme://$http_host$escaped_request_uri`) unless the
 * URL carries it already. The annotation's `https://$host` is written
 * `$scheme://$http_host`, since test hosts have ports and no TLS.
 */
function signInUrl(auth: IngressAuth, signIn: string): string {
  const url = signIn.replace('https://$host', '$scheme://$http_host');
  const query = new URLSearchParams(url.split('?')[1] ?? '');
  if (query.get(auth.signInRedirectParam)) return url;
  const joint = url.includes('?') ? '&' : '?';
  return `${url}${joint}${auth.signInRedirectParam}=$scheme://$http_host$escaped_request_uri`;
}

/**
 * What ingress-nginx makes of an Ingress for `host` with `auth`, reduced to
 * what decides the flow; its controller renders it from its nginx.tmpl:
 * - an internal location per protected path that proxies to auth-url
 *   (whose origin, the gateway's Service, is `gateway` here) without the
 *   body, passing the client's headers on and adding X-Original-URL (scheme,
 *   the Host header, the raw request URI), X-Original-Method and
 *   X-Auth-Request-Redirect (the request URI);
 * - in the protected location, `auth_request` to it, `auth_request_set` of
 *   each auth-response-header into a variable and `proxy_set_header` of it,
 *   so the application gets the check's value (or an empty one) whatever the
 *   client sent;
 * - with auth-signin, `set_escape_uri` (the set-misc module, built into the
 *   controller) of the request URI, and `error_page 401 =` a location that
 *   redirects to the sign-in URL (signInUrl).
 * A second Ingress routes /_sso/ to the gateway with the browser's Host.
 */
export function ingressNginxServer(options: {
  readonly port: number;
  readonly host: string;
  readonly auth: IngressAuth;
  readonly gateway: string;
  readonly app: string;
}): string {
  const { port, host, auth, gateway, app } = options;
  const signIn =
    auth.signIn === undefined
      ? ''
      : `
    location @64e1a1a2b7ea1a4c1d5f0a4b1c0e7d7e3c7d3c31 {
      internal;
      add_header Set-Cookie $auth_cookie;
      return 302 ${signInUrl(auth, auth.signIn)};
    }`;
  const responseHeaders = auth.responseHeaders
    .map(
      (name, at) => `
      auth_request_set $authHeader${at} $upstream_http_${name.toLowerCase().replaceAll('-', '_')};
      proxy_set_header '${name}' $authHeader${at};`,
    )
    .join('');
  return `
  server {
    listen 127.0.0.1:${port};
    server_name ${host};

    location /_sso/ {
      proxy_set_header Host $http_host;
      proxy_pass ${gateway};
    }

    location = /_external-auth-Lw-Prefix {
      internal;
      proxy_pass_request_body off;
      proxy_set_header Content-Length "";
      proxy_set_header Host ${new URL(gateway).host};
      proxy_set_header X-Original-URL $scheme://$http_host$request_uri;
      proxy_set_header X-Original-Method $request_method;
      proxy_set_header X-Sent-From "nginx-ingress-controller";
      proxy_set_header X-Real-IP $remote_addr;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Auth-Request-Redirect $request_uri;
      proxy_http_version 1.1;
      proxy_pass_request_headers on;
      set $target ${gateway}${new URL(auth.url).pathname};
      proxy_pass $target;
    }
${signIn}
    location / {
      auth_request /_external-auth-Lw-Prefix;
      auth_request_set $auth_cookie $upstream_http_set_cookie;
      add_header Set-Cookie $auth_cookie;${responseHeaders}
      set_escape_uri $escaped_request_uri $request_uri;${
        auth.signIn === undefined
          ? ''
          : `
      error_page 401 = @64e1a1a2b7ea1a4c1d5f0a4b1c0e7d7e3c7d3c31;`
      }
      proxy_set_header Host $http_host;
      proxy_pass ${app};
    }
  }`;
}

/** nginx's configuration for `servers`, with a default server answering /healthz. */
export function ingressNginxConf(dir: string, port: number, servers: readonly string[]): string {
  const modules = '/usr/lib/nginx/modules';
  return `load_module ${modules}/ndk_http_module.so;
load_module ${modules}/ngx_http_set_misc_module.so;
${nginxPreamble()}http {
${nginxTempPaths(dir)}
  server {
    listen 127.0.0.1:${port} default_server;
    location = /healthz { return 200; }
  }
${servers.join('\n')}
}
`;
}

// ingress-nginx's build has the set-misc module; CI installs Debian's (.ci/run).
export const setMiscSkip =
  existsSync('/usr/lib/nginx/modules/ngx_http_set_misc_module.so') || process.env.CI === 'true'
    ? false
    : 'no set-misc module for nginx (apt-get install libnginx-mod-http-set-misc)';
