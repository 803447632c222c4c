import type { SsogateError } from '../errors/ssogate-error.js';
import type { PlaceholderAdjustments, TemplateKind } from './placeholders.js';

/** Text exactly as the administrator wrote it; `column` of its first character. */
interface LiteralPart {
  readonly type: 'literal';
  readonly text: string;
  readonly column: number;
}

/** A `${name}`; `column` is 1-based into the template source, for messages. */
export interface PlaceholderPart {
  readonly type: 'placeholder';
  readonly name: string;
  readonly column: number;
}

export type TemplatePart = LiteralPart | PlaceholderPart;

/** Literal text of a `POST ` parameter value, already percent-decoded. */
export interface DecodedPart {
  readonly type: 'decoded';
  readonly text: string;
}

/** One query parameter of a `POST ` template, in template order. */
export interface PostParameter {
  readonly name: string;
  readonly value: readonly (DecodedPart | PlaceholderPart)[];
}

interface CompiledTemplateBase {
  readonly kind: TemplateKind;
  readonly source: string;
  /** Names of the placeholders the template uses. */
  readonly placeholders: ReadonlySet<string>;
  /** The whole URL (without the `POST ` prefix): literals and placeholders. */
  readonly parts: readonly TemplatePart[];
}

interface GetTemplate extends CompiledTemplateBase {
  readonly method: 'GET';
}

interface PostTemplate extends CompiledTemplateBase {
  readonly method: 'POST';
  /** The URL up to (not including) its `?` or `#`: where the POST goes. */
  readonly endpoint: readonly TemplatePart[];
  /** The query parameters, which become the body (docs/entries.md#request-shapes). */
  readonly parameters: readonly PostParameter[];
}

export type CompiledTemplate = GetTemplate | PostTemplate;

export type TemplateResult =
  | { readonly ok: true; readonly template: CompiledTemplate }
  | { readonly ok: false; readonly problems: readonly SsogateError[] };

export interface CompileOptions {
  /** The entry field the template comes from; copied onto every problem. */
  readonly field?: string;
  /** Names of values taken from the token response (userInfoUrl only). */
  readonly extraPlaceholders?: readonly string[];
  /** What the entry's options change in the placeholder matrix. */
  readonly adjustments?: PlaceholderAdjustments;
}
