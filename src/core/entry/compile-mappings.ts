import { SsogateError } from '../errors/ssogate-error.js';
import type { AttributeMapping } from '../user/map-user.js';
import { isUserAttribute, userAttributes } from '../user/attributes.js';
import type { ProblemList } from './compile-fields.js';
import { asRecord, compileExpression } from './compile-fields.js';
import type { MappingSource, MappingSourcePosition } from './mapping-text.js';
import { parseMappingText } from './mapping-text.js';

/**
 * Where a mapping list stands: `userInfoParse` must map userId; the mapping
 * of a call after user info may not (the user is who user info said).
 */
interface MappingPlace {
  readonly field: string;
  readonly userId: 'required' | 'refused';
}

const userInfoPlace: MappingPlace = { field: 'userInfoParse', userId: 'required' };

/**
 * Compiles `userInfoParse`, given as a list of `{attribute, expression}` or as
 * the text form. Problems name the list index, or the line and column of the
 * text, so the console can point at them.
 */
export function compileMappings(
  raw: unknown,
  problems: ProblemList,
  place: MappingPlace = userInfoPlace,
): AttributeMapping[] {
  if (typeof raw === 'string') {
    const parsed = parseMappingText(raw, place.field);
    problems.addAll(parsed.problems);
    return compileSources(parsed.mappings, problems, place, parsed.positions);
  }
  if (!Array.isArray(raw)) return [];
  const sources = raw.map((item) => {
    const record = asRecord(item);
    return {
      attribute: typeof record.attribute === 'string' ? record.attribute : '',
      expression: typeof record.expression === 'string' ? record.expression : '',
      required: record.required === true,
    };
  });
  return compileSources(sources, problems, place);
}

function compileSources(
  sources: readonly MappingSource[],
  problems: ProblemList,
  { field, userId }: MappingPlace,
  positions?: readonly MappingSourcePosition[],
): AttributeMapping[] {
  const mappings: AttributeMapping[] = [];
  const seen = new Set<string>();
  sources.forEach(({ attribute, expression: source, required }, index) => {
    const position = positions?.[index];
    const place = (column: number) =>
      position === undefined
        ? { field: `${field}[${index}].attribute` }
        : { field, line: position.line, column };
    if (!isUserAttribute(attribute)) {
      problems.add(
        new SsogateError(
          'user_attribute_unknown',
          `'${attribute}' is not a user attribute; known: ${userAttributes.join(', ')}`,
          place(position?.attributeColumn ?? 1),
        ),
      );
    } else if (attribute === 'userId' && userId === 'refused') {
      problems.add(
        new SsogateError(
          'field_invalid',
          'userId comes from the user-info answer; a later call may fill the other attributes',
          place(position?.attributeColumn ?? 1),
        ),
      );
    } else if (seen.has(attribute)) {
      problems.add(
        new SsogateError('user_attribute_repeated', `'${attribute}' is mapped more than once`, {
          ...place(position?.attributeColumn ?? 1),
        }),
      );
    }
    seen.add(attribute);
    const expression = compileExpression(
      source,
      position === undefined ? `${field}[${index}].expression` : field,
      problems,
      position === undefined
        ? undefined
        : { line: position.line, column: position.expressionColumn },
    );
    const refused = attribute === 'userId' && userId === 'refused';
    if (expression !== undefined && isUserAttribute(attribute) && !refused) {
      mappings.push({
        attribute,
        expression,
        required: required === true || attribute === 'userId',
        place: position === undefined ? { row: index + 1 } : { line: position.line },
      });
    }
  });
  if (userId === 'required' && sources.length > 0 && !seen.has('userId')) {
    problems.add(
      new SsogateError(
        'field_invalid',
        'a filled user-info parsing must map userId, the sign-in identifier (or leave it empty to read the object under "user")',
        { field },
      ),
    );
  }
  return mappings;
}
