/**
 * The values expressions compute with: exactly what JSON can express. Objects
 * come from JSON.parse, which defines every key (`__proto__` included) as an
 * own data property, so reading them only through `Object.hasOwn` keeps
 * `__proto__`, `constructor` and `toString` plain data or "not found", never
 * a prototype or a function.
 */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;

export interface JsonObject {
  readonly [key: string]: JsonValue;
}

export function isJsonArray(value: JsonValue): value is readonly JsonValue[] {
  return Array.isArray(value);
}

export function isJsonObject(value: JsonValue): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The own property `key` of `obj`, or undefined; never an inherited one. */
export function getOwn(obj: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** A short type name for error messages ("an object", "a string", ...). */
export function describeType(value: JsonValue): string {
  if (value === null) return 'null';
  if (isJsonArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return 'an object';
  }
}
