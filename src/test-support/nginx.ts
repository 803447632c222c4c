import type { RunningProxy } from './proxy-process.js';
import { findBinary, proxySkip, startProxy } from './proxy-process.js';

const nginxBinary = findBinary(['/usr/sbin/nginx', '/usr/bin/nginx'], ['-v']);

export const nginxSkip = proxySkip(nginxBinary, 'no nginx (apt-get install nginx)');

/** The head of a test configuration: one worker (as root when run as root). */
export function nginxPreamble(): string {
  const asRoot = process.getuid?.() === 0 ? 'user root;\n' : '';
  return `${asRoot}worker_processes 1;
events { worker_connections 64; }
`;
}

/** The temporary-file paths an `http` block of a test configuration needs. */
export function nginxTempPaths(dir: string): string {
  return `  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
`;
}

export type RunningNginx = RunningProxy;

/**
 * nginx with the configuration `conf` makes for its own temporary
 * directory, in the foreground; resolves once `readyUrl` answers.
 */
export async function startNginx(
  conf: (dir: string) => string,
  readyUrl: string,
): Promise<RunningNginx> {
  return startProxy({
    name: 'nginx',
    binary: nginxBinary ?? 'nginx',
    config: { file: 'nginx.conf', text: conf },
    args: (dir) => [
      '-p',
      dir,
      '-c',
      'nginx.conf',
      '-e',
      `${dir}/error.log`,
      '-g',
      `daemon off; pid ${dir}/nginx.pid;`,
    ],
    readyUrl,
  });
}

/**
 * The configuration of docs/proxy.md, with the ports filled in: nginx in
 * front of an application, asking the gateway with auth_request, and sending
 * /_sso/ to the gateway so its cookie lives on the application's host.
 * Used by src/features/forward-auth/nginx.test.ts and by the story of one sign-in
 * across hosts (src/features/sign-in/many-hosts-browser.test.ts).
 */
export function forwardAuthConf(dir: string, port: number, gateway: string, app: string): string {
  return `${nginxPreamble()}http {
${nginxTempPaths(dir)}
  server {
    listen 127.0.0.1:${port};

    location /_sso/ {
      proxy_pass ${gateway};
      # The browser's host, which a handoff's finish checks (docs/proxy.md#many-hosts).
      proxy_set_header Host $http_host;
    }

    location = /_sso_check {
      internal;
      proxy_pass ${gateway}/_sso/auth;
      proxy_pass_request_body off;
      proxy_set_header Content-Length "";
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-Uri $request_uri;
      proxy_set_header X-Original-URI "";
    }

    # A check set up the other common way, naming the path in X-Original-URI only.
    location = /_sso_check_original {
      internal;
      proxy_pass ${gateway}/_sso/auth;
      proxy_pass_request_body off;
      proxy_set_header Content-Length "";
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Original-URI $request_uri;
    }

    location /legacy/ {
      auth_request /_sso_check_original;
      proxy_pass ${app};
    }

    location = /_sso_sign_in {
      internal;
      proxy_pass ${gateway}/_sso/auth/redirect;
      proxy_pass_request_body off;
      proxy_set_header Content-Length "";
      proxy_set_header X-Forwarded-Method $request_method;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-Uri $request_uri;
      proxy_set_header X-Original-URI "";
    }

    location / {
      auth_request /_sso_check;
      auth_request_set $sso_user $upstream_http_x_auth_request_user;
      auth_request_set $sso_email $upstream_http_x_auth_request_email;
      auth_request_set $sso_name $upstream_http_x_auth_request_preferred_username;
      proxy_set_header X-Auth-Request-User $sso_user;
      proxy_set_header X-Auth-Request-Email $sso_email;
      proxy_set_header X-Auth-Request-Preferred-Username $sso_name;
      error_page 401 = /_sso_sign_in;
      proxy_pass ${app};
    }
  }
}
`;
}
