/**
 * A plain description of a call to a third-party server. The core only builds
 * it; the gateway's HTTP client sends it, never following redirects, within
 * `timeoutMs`, and reading at most `maxResponseBytes` of the body (docs/design.md#templates-and-requests).
 */
export interface OutboundRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
}

/** What the gateway read back: the status and the body as text. */
export interface ThirdPartyResponse {
  readonly status: number;
  readonly body: string;
  /** Response headers, names in lowercase; read only where a contract signs its answers. */
  readonly headers?: Readonly<Record<string, string>>;
}

export const maxResponseBytes = 1024 * 1024;
