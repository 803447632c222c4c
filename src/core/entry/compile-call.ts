import type {
  CompiledHeader,
  CompiledTemplate,
  PlaceholderAdjustments,
  TemplateKind,
} from '../template/index.js';
import { compileHeaderTemplate, compileTemplate } from '../template/index.js';
import type { CompiledCall } from './compiled-entry.js';
import type { ProblemList } from './compile-fields.js';
import { asArray, asRecord, compileExpression, textField } from './compile-fields.js';

/** Headers the gateway sets itself from the call's other settings. */
const managedHeaders: ReadonlyMap<string, string> = new Map([
  ['content-type', 'it follows from bodyEncoding'],
  ['accept', 'the gateway asks for JSON and accepts any body'],
]);

interface CallFields {
  /** The field holding the URL template, as problems name it (`tokenUrl`, `appToken.url`). */
  readonly urlField: string;
  /** The field holding the options, as problems name it (`tokenRequest`, `appToken`). */
  readonly optionsField: string;
  readonly kind: TemplateKind;
  readonly extraPlaceholders: readonly string[];
  readonly adjustments?: PlaceholderAdjustments;
}

/** Where a call's URL and options are read: two fields of the entry, or one object. */
interface CallSource {
  readonly url: string | undefined;
  readonly options: Readonly<Record<string, unknown>>;
}

/** Compiles a URL template field; undefined when absent or invalid. */
export function compileTemplateField(
  source: string | undefined,
  kind: TemplateKind,
  field: string,
  problems: ProblemList,
  extraPlaceholders: readonly string[] = [],
  adjustments: PlaceholderAdjustments = {},
): CompiledTemplate | undefined {
  if (source === undefined) return undefined;
  const result = compileTemplate(source, kind, { field, extraPlaceholders, adjustments });
  if (result.ok) return result.template;
  problems.addAll(result.problems);
  return undefined;
}

/**
 * Compiles an outbound call: its URL template and the options beyond the
 * basic shape (headers, body encoding, success condition), which are all off
 * unless set, so that a GET-style entry sends exactly what its templates say.
 */
export function compileCall(
  raw: Readonly<Record<string, unknown>>,
  fields: CallFields,
  problems: ProblemList,
): CompiledCall | undefined {
  return compileCallFrom(
    { url: textField(raw, fields.urlField), options: asRecord(raw[fields.optionsField]) },
    fields,
    problems,
  );
}

/** compileCall for a call described by one object (`appToken`, each of `userInfoCalls`). */
export function compileCallFrom(
  source: CallSource,
  fields: CallFields,
  problems: ProblemList,
): CompiledCall | undefined {
  const { urlField, optionsField, kind, extraPlaceholders, adjustments } = fields;
  const template = compileTemplateField(
    source.url,
    kind,
    urlField,
    problems,
    extraPlaceholders,
    adjustments,
  );
  const options = source.options;
  const headers = compileHeaders(options.headers, fields, problems);

  const bodyEncoding = options.bodyEncoding === 'form' ? 'form' : 'json';
  if (options.bodyEncoding !== undefined && template?.method === 'GET') {
    problems.field(
      `${optionsField}.bodyEncoding`,
      `applies to a POST call only; write the ${urlField} as "POST https://..." or remove bodyEncoding`,
    );
  }

  const conditionSource = textField(options, 'successCondition');
  const successCondition =
    conditionSource === undefined
      ? undefined
      : compileExpression(conditionSource, `${optionsField}.successCondition`, problems);

  if (template === undefined || headers === undefined) return undefined;
  if (conditionSource !== undefined && successCondition === undefined) return undefined;
  return { template, headers, bodyEncoding, successCondition };
}

function compileHeaders(
  raw: unknown,
  { optionsField, kind, extraPlaceholders, adjustments }: CallFields,
  problems: ProblemList,
): CompiledHeader[] | undefined {
  const headers: CompiledHeader[] = [];
  const seen = new Set<string>();
  let valid = true;
  for (const [index, item] of asArray(raw).entries()) {
    const field = `${optionsField}.headers[${index}]`;
    const { name, value } = asRecord(item);
    if (typeof name !== 'string' || typeof value !== 'string') {
      valid = false;
      continue;
    }
    const lowerName = name.toLowerCase();
    const managedReason = managedHeaders.get(lowerName);
    if (managedReason !== undefined) {
      problems.field(
        `${field}.name`,
        `${name} is set by the gateway: ${managedReason}`,
        'header_invalid',
      );
      valid = false;
    } else if (seen.has(lowerName)) {
      problems.field(`${field}.name`, `${name} is given more than once`, 'header_invalid');
      valid = false;
    }
    seen.add(lowerName);
    const result = compileHeaderTemplate(name, value, kind, {
      field,
      extraPlaceholders,
      ...(adjustments === undefined ? {} : { adjustments }),
    });
    if (result.ok) headers.push(result.header);
    else {
      problems.addAll(result.problems);
      valid = false;
    }
  }
  return valid ? headers : undefined;
}
