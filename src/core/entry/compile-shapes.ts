import type { Expression } from '../expression/index.js';
import type { BuiltInPlaceholder, PlaceholderAdjustments } from '../template/index.js';
import { builtInPlaceholders } from '../template/index.js';
import type { AttributeMapping } from '../user/map-user.js';
import type { CompiledCall } from './compiled-entry.js';
import type { ProblemList } from './compile-fields.js';
import { asArray, asRecord, compileExpression, textField } from './compile-fields.js';
import { compileCallFrom } from './compile-call.js';
import { compileMappings } from './compile-mappings.js';

/** A value read from an answer by an expression, usable as `${name}` in later calls. */
export interface NamedValue {
  readonly name: string;
  readonly expression: Expression;
}

/** The application-token call (docs/entries.md#the-application-token). */
interface CompiledAppToken extends CompiledCall {
  readonly parse: Expression;
  readonly expiresIn: Expression | undefined;
  readonly ttlSeconds: number | undefined;
}

/** One call of the chain after user info (docs/entries.md#calls-after-user-info). */
export interface CompiledUserInfoCall extends CompiledCall {
  readonly name: string;
  readonly values: readonly NamedValue[];
  readonly mapping: readonly AttributeMapping[];
}

/** The shapes beyond the basic flow, each off unless the entry sets it. */
export interface CompiledShapes {
  /** The callback's query parameter holding the code; `code` unless set. */
  readonly callbackCodeParameter: string;
  /** Appended as `#fragment` after the whole query, PKCE included. */
  readonly authorizeFragment: string | undefined;
  readonly appToken: CompiledAppToken | undefined;
  readonly codeInUserInfo: boolean;
  /** False when the entry leaves tokenUrl out (codeInUserInfo only). */
  readonly tokenExchange: boolean;
  readonly userInfoValues: readonly NamedValue[];
  readonly userInfoCalls: readonly CompiledUserInfoCall[];
}

const valueName = /^[A-Za-z_][A-Za-z0-9_]*$/;
// A query parameter name as a provider documents it: `authCode`, `auth_code`.
const parameterName = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
// RFC 3986 §3.5: fragment = *( pchar / "/" / "?" ), written without escapes.
const fragmentText = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?]{1,256}$/;

/**
 * The matrix changes an entry's options make, per step: what the token
 * exchange, the user-info call and the chain may use beyond the basics.
 */
interface ShapeAdjustments {
  readonly tokenUrl: PlaceholderAdjustments;
  readonly userInfoUrl: PlaceholderAdjustments;
}

export function shapeAdjustments(raw: Readonly<Record<string, unknown>>): ShapeAdjustments {
  const appToken: BuiltInPlaceholder[] = raw.appToken === undefined ? [] : ['app_token'];
  const code: BuiltInPlaceholder[] = raw.codeInUserInfo === true ? ['code'] : [];
  const withhold: BuiltInPlaceholder[] = hasTokenExchange(raw) ? [] : ['access_token'];
  return {
    tokenUrl: { grant: appToken },
    userInfoUrl: { grant: [...appToken, ...code], withhold },
  };
}

/** An entry exchanges its code for a token unless it reads the user with the code itself. */
export function hasTokenExchange(raw: Readonly<Record<string, unknown>>): boolean {
  return !(raw.codeInUserInfo === true && textField(raw, 'tokenUrl') === undefined);
}

/**
 * Compiles the shapes beyond the basic flow. `tokenValueNames` are the
 * values the token answer gives; the user-info values and each call's values
 * add to them in order, and a name used before its answer arrived is refused.
 */
export function compileShapes(
  raw: Readonly<Record<string, unknown>>,
  tokenValueNames: readonly string[],
  problems: ProblemList,
): CompiledShapes | undefined {
  const before = problems.items.length;
  const callbackCodeParameter = textField(raw, 'callbackCodeParameter') ?? 'code';
  if (!parameterName.test(callbackCodeParameter)) {
    problems.field(
      'callbackCodeParameter',
      'must be a query parameter name: a letter, then letters, digits, _ . or -',
    );
  }
  const authorizeFragment = textField(raw, 'authorizeFragment');
  if (authorizeFragment !== undefined && !fragmentText.test(authorizeFragment.replace(/^#/, ''))) {
    problems.field(
      'authorizeFragment',
      "must be the fragment text after #: letters, digits and - . _ ~ ! $ & ' ( ) * + , ; = : @ / ?",
    );
  }
  const appToken = compileAppToken(raw, problems);
  const taken = new Set<string>([...builtInPlaceholders, ...tokenValueNames]);
  const userInfoValues = compileNamedValues(raw.userInfoValues, 'userInfoValues', taken, problems);
  const adjustments = shapeAdjustments(raw);
  const known = [...tokenValueNames, ...userInfoValues.map(({ name }) => name)];
  const rawCalls = asArray(raw.userInfoCalls);
  const callNames = new Set<string>();
  const userInfoCalls: CompiledUserInfoCall[] = [];
  const laterNames = (from: number) =>
    rawCalls
      .slice(from)
      .flatMap((call) => asArray(asRecord(call).values))
      .map((value) => asRecord(value).name)
      .filter((name): name is string => typeof name === 'string');
  rawCalls.forEach((item, index) => {
    const field = `userInfoCalls[${index}]`;
    const record = asRecord(item);
    const name = typeof record.name === 'string' ? record.name : '';
    if (!valueName.test(name) || callNames.has(name)) {
      problems.field(`${field}.name`, 'must be a distinct name of letters, digits and _');
    }
    callNames.add(name);
    const call = compileCallFrom(
      { url: textField(record, 'url'), options: record },
      {
        urlField: `${field}.url`,
        optionsField: field,
        kind: 'userInfoCallUrl',
        extraPlaceholders: [...known],
        adjustments: {
          ...adjustments.userInfoUrl,
          grant: appTokenGrant(raw),
          later: laterNames(index),
        },
      },
      problems,
    );
    if (textField(record, 'url') === undefined) problems.field(`${field}.url`, 'is required');
    const values = compileNamedValues(record.values, `${field}.values`, taken, problems);
    known.push(...values.map((value) => value.name));
    const mapping = compileMappings(record.mapping, problems, {
      field: `${field}.mapping`,
      userId: 'refused',
    });
    if (call !== undefined) userInfoCalls.push({ ...call, name, values, mapping });
  });
  if (problems.items.length > before) return undefined;
  return {
    callbackCodeParameter,
    authorizeFragment: authorizeFragment?.replace(/^#/, ''),
    appToken,
    codeInUserInfo: raw.codeInUserInfo === true,
    tokenExchange: hasTokenExchange(raw),
    userInfoValues,
    userInfoCalls,
  };
}

/** The names the user-info values and the chain's values define, for the user-info URL's "later". */
export function laterValueNames(raw: Readonly<Record<string, unknown>>): string[] {
  return [
    ...asArray(raw.userInfoValues),
    ...asArray(raw.userInfoCalls).flatMap((call) => asArray(asRecord(call).values)),
  ]
    .map((value) => asRecord(value).name)
    .filter((name): name is string => typeof name === 'string');
}

function appTokenGrant(raw: Readonly<Record<string, unknown>>): BuiltInPlaceholder[] {
  return raw.appToken === undefined ? [] : ['app_token'];
}

function compileAppToken(
  raw: Readonly<Record<string, unknown>>,
  problems: ProblemList,
): CompiledAppToken | undefined {
  if (raw.appToken === undefined) return undefined;
  const record = asRecord(raw.appToken);
  const url = textField(record, 'url');
  if (url === undefined) problems.field('appToken.url', 'is required');
  const call = compileCallFrom(
    { url, options: record },
    {
      urlField: 'appToken.url',
      optionsField: 'appToken',
      kind: 'appTokenUrl',
      extraPlaceholders: [],
    },
    problems,
  );
  const parseSource = textField(record, 'parse');
  if (parseSource === undefined) problems.field('appToken.parse', 'is required');
  const parse =
    parseSource === undefined
      ? undefined
      : compileExpression(parseSource, 'appToken.parse', problems);
  const expiresInSource = textField(record, 'expiresIn');
  const expiresIn =
    expiresInSource === undefined
      ? undefined
      : compileExpression(expiresInSource, 'appToken.expiresIn', problems);
  const ttlSeconds = typeof record.ttlSeconds === 'number' ? record.ttlSeconds : undefined;
  if ((expiresInSource === undefined) === (ttlSeconds === undefined)) {
    problems.field(
      'appToken',
      'needs exactly one of expiresIn (an expression over the answer) or ttlSeconds, so the token is cached for its lifetime',
    );
  }
  if (call === undefined || parse === undefined) return undefined;
  return { ...call, parse, expiresIn, ttlSeconds };
}

function compileNamedValues(
  raw: unknown,
  field: string,
  taken: Set<string>,
  problems: ProblemList,
): NamedValue[] {
  const values: NamedValue[] = [];
  asArray(raw).forEach((item, index) => {
    const { name, expression: source } = asRecord(item);
    if (typeof name !== 'string' || typeof source !== 'string') return;
    if (!valueName.test(name)) {
      problems.field(
        `${field}[${index}].name`,
        'must be a name of letters, digits and _ not starting with a digit',
      );
      return;
    }
    if (taken.has(name)) {
      problems.field(`${field}[${index}].name`, `'${name}' is already a placeholder name`);
      return;
    }
    taken.add(name);
    const expression = compileExpression(source, `${field}[${index}].expression`, problems);
    if (expression !== undefined) values.push({ name, expression });
  });
  return values;
}
