/** A person who can sign in at the example server. */
export interface ExampleUser {
  readonly username: string;
  readonly password: string;
  readonly userId: string;
  readonly name: string;
  readonly email: string;
  readonly department: string;
  readonly enabled?: boolean;
  /** Sent as `groups` in the standard style's user info. */
  readonly groups?: readonly string[];
}

/** A registered client (the gateway's entry): its appid / client_id and secret. */
export interface ExampleClient {
  readonly appid: string;
  readonly secret: string;
  /** Accepted redirect URIs; absent: any http(s) URI (the demo's public URL is not known in advance). */
  readonly redirectUris?: readonly string[];
}

/** A failure to inject into the next request of an endpoint, for tests. */
export type ResponseFault =
  | { readonly status: number; readonly body?: string }
  | { readonly delayMs: number }
  | { readonly body: string }
  | { readonly redirectTo: string };

type AuthorizeFault =
  | ResponseFault
  | { readonly error: string; readonly description?: string }
  | { readonly omitCode: true };

export type Fault = AuthorizeFault;
export type FaultEndpoint = 'authorize' | 'token' | 'userinfo';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed body (JSON object or form fields), or undefined; filled once parsed. */
  body: unknown;
}

export interface ExampleServerOptions {
  readonly host?: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  readonly users?: readonly ExampleUser[];
  readonly clients?: readonly ExampleClient[];
  /**
   * Put before every code, access token and session id the server issues
   * (none by default): a soak run plants a recognisable text this way and
   * then looks for it in the gateway's logs.
   */
  readonly issuedPrefix?: string;
}

export interface ExampleServer {
  readonly url: string;
  /** Every request received, in order; tests may clear it with `requests.length = 0`. */
  readonly requests: RecordedRequest[];
  /** Changes a person at the provider (disable them: `{ enabled: false }`); issued tokens see it. */
  updateUser(username: string, changes: Partial<ExampleUser>): void;
  /** Revokes every access token issued so far. */
  revokeTokens(): void;
  /** Queues a fault for the next request to that endpoint, whatever its style. */
  failNext<E extends FaultEndpoint>(
    endpoint: E,
    fault: E extends 'authorize' ? AuthorizeFault : ResponseFault,
  ): void;
  /** Drops every fault still queued. */
  clearFaults(): void;
  close(): Promise<void>;
}
