import type { JsonValue } from '../../core/index.js';

/**
 * Conversions between column values and record fields, shared by every store
 * and both dialects.
 */

/** A bigint column: a number from SQLite, a string from pg. */
export function toMillis(value: number | string | bigint): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number))
    throw new Error(`Not a time in milliseconds: ${String(value)}`);
  return number;
}

export function toNullableMillis(value: number | string | bigint | null): number | null {
  return value === null ? null : toMillis(value);
}

/** COUNT(*) comes back as a number, a string or a bigint depending on the driver. */
export function toCount(value: number | string | bigint): number {
  return Number(value);
}

export function toFlag(value: boolean): number {
  return value ? 1 : 0;
}

export function fromFlag(value: number | string): boolean {
  return Number(value) === 1;
}

/**
 * A JSON object column read back as plain data. JSON.parse defines every key
 * (`__proto__` included) as an own data property, and the top level is
 * rebuilt with Object.fromEntries, so no stored key can reach a prototype.
 */
export function parseJsonObject(text: string, column: string): Record<string, JsonValue> {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`The ${column} column does not hold a JSON object.`);
  }
  // JSON.parse yields only JSON values, so this widening is exact.
  return Object.fromEntries(Object.entries(value as Record<string, JsonValue>));
}

export function parseNullableJsonObject(
  text: string | null,
  column: string,
): Record<string, JsonValue> | null {
  return text === null ? null : parseJsonObject(text, column);
}

/** Escapes LIKE wildcards so a search for "50%" matches that text only; used with ESCAPE '\'. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Whether an UPDATE or DELETE touched a row. */
export function touched(result: { numUpdatedRows: bigint } | { numDeletedRows: bigint }): boolean {
  return ('numUpdatedRows' in result ? result.numUpdatedRows : result.numDeletedRows) > 0n;
}
