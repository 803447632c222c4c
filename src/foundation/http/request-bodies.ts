import type { FastifyInstance } from 'fastify';
import { SsogateError } from '../../core/index.js';

/**
 * A request the framework could not read (a malformed body, a content type
 * no route takes, a body over the limit): `request_invalid`, with a reason
 * the client is shown, so an API caller learns what to fix rather than
 * "please start again". The reason is the gateway's own words, never the
 * body's text.
 */
class RequestNotReadable extends SsogateError<'request_invalid'> {
  readonly #reason: string;

  constructor(reason: string, cause: unknown) {
    super('request_invalid', reason, { cause });
    this.#reason = reason;
  }

  override get publicDetail(): string {
    return this.#reason;
  }
}

/** The reason for each of the framework's client errors that a caller can fix. */
const reasons: Readonly<Record<string, string>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'the body is not valid JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'the body is larger than the gateway accepts',
  FST_ERR_CTP_INVALID_MEDIA_TYPE:
    'the content type is not one this route takes (send application/json)',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'the Content-Length does not match the body',
  FST_ERR_CTP_EMPTY_TYPE: 'the Content-Type header is empty',
  FST_ERR_CTP_INVALID_TYPE: 'the Content-Type header is not a media type',
};

/** A framework error with a 4xx status as the client's error, with its reason. */
export function clientError(error: Error & { readonly code?: string }): RequestNotReadable {
  const reason =
    reasons[error.code ?? ''] ??
    (error instanceof SyntaxError ? 'the body is not valid JSON' : 'the request could not be read');
  return new RequestNotReadable(reason, error);
}

/**
 * JSON bodies as the framework reads them (its guard against `__proto__` and
 * `constructor` keys included), except that an empty body is no body: a
 * client library that always sends `content-type: application/json` may
 * call a route that takes none (docs/admin-api.md), and a route that needs
 * one says which field is missing.
 */
export function readEmptyJsonAsNoBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, text, done);
  });
}
