import { z } from 'zod';
import { entryIdPattern, entryInput } from '../../core/index.js';
import { auditKinds } from '../../foundation/storage/types.js';

/**
 * Query and path parameters of the admin API. Query values arrive as
 * strings (an array when repeated, which fails as the wrong type); unknown
 * parameters are refused so a misspelt filter is not silently ignored.
 */

/** A whole number in a query string or path, within bounds. */
function wholeNumber(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,15}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .describe(
      max === Number.MAX_SAFE_INTEGER
        ? `a whole number, at least ${min}`
        : `a whole number from ${min} to ${max}`,
    );
}

const filterText = z
  .string()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters');

/** An ISO 8601 date or date-time with its offset; a bare date is midnight UTC. */
export const isoTime = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/,
    'must be an ISO 8601 date (2024-05-01) or date-time with offset (2024-05-01T12:00:00Z)',
  )
  .transform((text) => Date.parse(text))
  .pipe(z.number().refine(Number.isFinite, 'is not a valid date'));

/** An entry's id in the path: a slug, as every stored entry's id is. */
export const entryParams = z.strictObject({
  id: z
    .string()
    .regex(entryIdPattern, 'must be an entry id: lowercase letters, digits, inner hyphens'),
});

export const userIdParams = z.strictObject({ id: wholeNumber(1, Number.MAX_SAFE_INTEGER) });

export const userListQuery = z.strictObject({
  search: z.string().max(200, 'must be at most 200 characters').optional(),
  limit: wholeNumber(1, 200).default(50),
  offset: wholeNumber(0, Number.MAX_SAFE_INTEGER).default(0),
});

export const auditQuery = z.strictObject({
  kind: z.enum(auditKinds).optional(),
  entryId: filterText.optional(),
  userId: filterText.optional(),
  outcome: z.enum(['success', 'failure']).optional(),
  /**
   * The reference id on a user's error page: 10 characters of Crockford's
   * base32, in either case, spaces around it ignored; I and L are read as 1, O as 0.
   */
  reference: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z]{10}$/, 'must be the 10-character reference id of an error page')
    .optional(),
  /** Inclusive. */
  since: isoTime.optional(),
  /** Exclusive. */
  until: isoTime.optional(),
  limit: wholeNumber(1, 500).default(100),
  /** The `nextBefore` of the previous page. */
  before: wholeNumber(1, Number.MAX_SAFE_INTEGER).optional(),
});

/**
 * The body of PUT /entries/{id} as a client sends it: the id may be left
 * out (the path names it), and `"appsecret": null` or `"extensionSecret": null`
 * clears the stored secret.
 * The route checks the merged entry with validateEntry, against entryInput.
 */
export const entryReplaceBody = entryInput.extend({
  id: entryInput.shape.id.optional(),
  appsecret: entryInput.shape.appsecret.nullable(),
  extensionSecret: entryInput.shape.extensionSecret.nullable(),
});
