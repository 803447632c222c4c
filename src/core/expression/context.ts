/**
 * What one evaluation runs over: the response body and a cache of parsed
 * JSON. Several mappings over one response (userId, email, ...) each start
 * with JSON_GET($response, ...); the cache makes the body parse once, and a
 * body that is not JSON fail once, whatever the number of mappings.
 */
import { isSsogateError } from '../errors/ssogate-error.js';
import type { SsogateError } from '../errors/ssogate-error.js';
import type { JsonValue } from './json-value.js';
import { parseUntrustedJson } from './safe-json.js';

export interface EvaluationContext {
  /** The body of the call's response: the value of `$response`. */
  readonly response: string;
  /** Exact secrets to mask in error messages (appsecret, code, ...). */
  readonly secrets: readonly string[];
  /** Parses JSON text once per context; the same text yields the same value. */
  parseJson(text: string): JsonValue;
  /** How many texts were actually parsed (cache misses); for tests and benchmarks. */
  readonly jsonParseCount: number;
  /**
   * The claims of tokens whose signature and claims the gateway verified
   * before this evaluation (an OpenID Connect id_token), by the token's text:
   * what JWT_CLAIMS may return.
   */
  readonly verifiedTokens: ReadonlyMap<string, JsonValue>;
  /**
   * The entry's `tokenValues` read from the token response, for TOKEN_VALUE
   * in the user mapping; undefined where there is no token step (the token
   * response itself, a test run without one).
   */
  readonly tokenValues: Readonly<Record<string, string>> | undefined;
}

interface EvaluationContextOptions {
  readonly secrets?: readonly string[];
  readonly verifiedTokens?: ReadonlyMap<string, JsonValue>;
  readonly tokenValues?: Readonly<Record<string, string>>;
}

const noTokens: ReadonlyMap<string, JsonValue> = new Map();

type CacheEntry =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly error: SsogateError };

export function createEvaluationContext(
  response: string,
  options: EvaluationContextOptions = {},
): EvaluationContext {
  return new ResponseContext(
    response,
    options.secrets ?? [],
    options.verifiedTokens ?? noTokens,
    options.tokenValues,
  );
}

/**
 * Nearly every expression parses `$response` itself, so its result has a slot
 * of its own; a Map is made only when another text (a nested JSON string, a
 * JWT's claims) is parsed. This keeps a one-call evaluation close to the cost
 * of JSON.parse alone (see bench/core.bench.ts).
 */
class ResponseContext implements EvaluationContext {
  jsonParseCount = 0;
  private responseEntry: CacheEntry | undefined;
  private otherEntries: Map<string, CacheEntry> | undefined;

  constructor(
    readonly response: string,
    readonly secrets: readonly string[],
    readonly verifiedTokens: ReadonlyMap<string, JsonValue>,
    readonly tokenValues: Readonly<Record<string, string>> | undefined,
  ) {}

  parseJson(text: string): JsonValue {
    const entry =
      text === this.response ? (this.responseEntry ??= this.parse(text)) : this.parseOther(text);
    if (entry.ok) return entry.value;
    throw entry.error;
  }

  private parseOther(text: string): CacheEntry {
    this.otherEntries ??= new Map();
    let entry = this.otherEntries.get(text);
    if (entry === undefined) {
      entry = this.parse(text);
      this.otherEntries.set(text, entry);
    }
    return entry;
  }

  private parse(text: string): CacheEntry {
    this.jsonParseCount += 1;
    try {
      return { ok: true, value: parseUntrustedJson(text, { secrets: this.secrets }) };
    } catch (error: unknown) {
      if (!isSsogateError(error)) throw error;
      return { ok: false, error };
    }
  }
}
