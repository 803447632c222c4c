import type { TemplateKind } from './placeholders.js';
import { checkPlaceholderNames } from './check-names.js';
import { parseMethodPrefix } from './method-prefix.js';
import { parsePostShape } from './post-parameters.js';
import { byColumn } from './problem.js';
import { scanPlaceholders } from './scan.js';
import type { CompileOptions, CompiledTemplate, TemplateResult } from './types.js';
import { checkUrl } from './url-checks.js';

/**
 * Compiles a URL template once, when the entry is saved (docs/design.md#the-entry). Every check
 * runs even after a failure, so the administrator sees all problems at once,
 * each with the field and a 1-based column into `source` (the column counts
 * the `POST ` prefix). Never throws: any input yields a result.
 */
export function compileTemplate(
  source: string,
  kind: TemplateKind,
  options: CompileOptions = {},
): TemplateResult {
  const { field } = options;
  const prefix = parseMethodPrefix(source, kind, field);
  const scan = scanPlaceholders(source.slice(prefix.urlStart), prefix.urlStart, field);
  const post = prefix.method === 'POST' ? parsePostShape(scan.parts, field) : undefined;
  const problems = [
    ...prefix.problems,
    ...scan.problems,
    ...checkPlaceholderNames(
      scan.parts,
      kind,
      options.extraPlaceholders ?? [],
      field,
      options.adjustments,
    ),
    ...checkUrl(scan.parts, prefix.urlStart + 1, field),
    ...(post?.problems ?? []),
  ];
  if (problems.length > 0) return { ok: false, problems: byColumn(problems) };

  const placeholders = new Set<string>();
  for (const part of scan.parts) if (part.type === 'placeholder') placeholders.add(part.name);
  const base = { kind, source, placeholders, parts: Object.freeze(scan.parts) };
  const template: CompiledTemplate =
    post === undefined
      ? { ...base, method: 'GET' }
      : {
          ...base,
          method: 'POST',
          endpoint: Object.freeze(post.endpoint),
          parameters: Object.freeze(post.parameters),
        };
  return { ok: true, template: Object.freeze(template) };
}
