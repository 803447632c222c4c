import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

/**
 * Renders a Helm chart written in a small part of Helm's template language,
 * since Helm itself is not installed here: `{{ .Values.a.b }}`, `.Release`,
 * `.Chart`, `{{- ... -}}` trimming, `if`/`else`/`end`, `define` and
 * `include`, and the functions `required`, `default`, `not`, `quote`,
 * `b64enc`, `toYaml`, `indent` and `nindent`, in pipelines. Anything else
 * throws, so a template using more fails its test instead of rendering wrong.
 */
export interface ChartRelease {
  readonly name: string;
  readonly namespace: string;
}

type Node =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'action'; readonly expression: string }
  | {
      readonly kind: 'if';
      readonly condition: string;
      readonly then: Node[];
      readonly otherwise: Node[];
    };

interface Context {
  readonly root: Record<string, unknown>;
  readonly defines: Map<string, Node[]>;
}

/** Every manifest the chart's templates make with these values over values.yaml. */
export async function renderChart(
  chartFolder: string,
  overrides: Record<string, unknown>,
  release: ChartRelease,
): Promise<Record<string, unknown>[]> {
  const chart = parse(await readFile(join(chartFolder, 'Chart.yaml'), 'utf8')) as Record<
    string,
    unknown
  >;
  const defaults = parse(await readFile(join(chartFolder, 'values.yaml'), 'utf8')) as Record<
    string,
    unknown
  >;
  const root = {
    Values: merged(defaults, overrides),
    Release: { Name: release.name, Namespace: release.namespace },
    Chart: Object.fromEntries(
      Object.entries(chart).map(([key, value]) => [
        `${key.charAt(0).toUpperCase()}${key.slice(1)}`,
        value,
      ]),
    ),
  };
  const templates = join(chartFolder, 'templates');
  const names = (await readdir(templates)).sort();
  const defines = new Map<string, Node[]>();
  const bodies: Node[][] = [];
  for (const name of names) {
    const nodes = parseTemplate(await readFile(join(templates, name), 'utf8'), defines);
    if (!name.startsWith('_')) bodies.push(nodes);
  }
  const context: Context = { root, defines };
  return bodies
    .flatMap((nodes) => renderNodes(nodes, context, root).split(/^---$/m))
    .map((text) => parse(text) as Record<string, unknown> | null)
    .filter((document): document is Record<string, unknown> => document !== null);
}

function merged(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const below = result[key];
    result[key] = isObject(below) && isObject(value) ? merged(below, value) : value;
  }
  return result;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Splits text and actions, applying `{{-` and `-}}` trimming, into a tree. */
function parseTemplate(source: string, defines: Map<string, Node[]>): Node[] {
  const tokens: ({ text: string } | { action: string })[] = [];
  let last = 0;
  let trimNext = false;
  for (const match of source.matchAll(/\{\{(-?)\s*([\s\S]*?)\s*(-?)\}\}/g)) {
    let text = source.slice(last, match.index);
    if (trimNext) text = text.trimStart();
    if (match[1] === '-') text = text.trimEnd();
    tokens.push({ text });
    tokens.push({ action: match[2] ?? '' });
    trimNext = match[3] === '-';
    last = match.index + match[0].length;
  }
  tokens.push({ text: trimNext ? source.slice(last).trimStart() : source.slice(last) });

  const stack: {
    nodes: Node[];
    open?: { condition: string; then: Node[] } | { define: string };
  }[] = [{ nodes: [] }];
  for (const token of tokens) {
    const top = stack.at(-1);
    if (top === undefined) throw new Error('unbalanced template');
    if ('text' in token) {
      if (token.text !== '') top.nodes.push({ kind: 'text', text: token.text });
      continue;
    }
    const action = token.action;
    const define = /^define "([^"]+)"$/.exec(action);
    if (define !== null) stack.push({ nodes: [], open: { define: define[1] ?? '' } });
    else if (action.startsWith('if '))
      stack.push({ nodes: [], open: { condition: action.slice(3), then: [] } });
    else if (action === 'else') {
      if (top.open === undefined || !('condition' in top.open)) throw new Error('else outside if');
      top.open = { condition: top.open.condition, then: top.nodes };
      top.nodes = [];
      (top as { elseSeen?: boolean }).elseSeen = true;
    } else if (action === 'end') {
      stack.pop();
      const parent = stack.at(-1);
      if (parent === undefined || top.open === undefined) throw new Error('end without a block');
      if ('define' in top.open) defines.set(top.open.define, top.nodes);
      else {
        const elseSeen = (top as { elseSeen?: boolean }).elseSeen === true;
        parent.nodes.push({
          kind: 'if',
          condition: top.open.condition,
          then: elseSeen ? top.open.then : top.nodes,
          otherwise: elseSeen ? top.nodes : [],
        });
      }
    } else top.nodes.push({ kind: 'action', expression: action });
  }
  if (stack.length !== 1) throw new Error('a block is not closed');
  return stack[0]?.nodes ?? [];
}

function renderNodes(nodes: readonly Node[], context: Context, dot: unknown): string {
  return nodes
    .map((node) => {
      if (node.kind === 'text') return node.text;
      if (node.kind === 'action') return printed(evaluate(node.expression, context, dot));
      return truthy(evaluate(node.condition, context, dot))
        ? renderNodes(node.then, context, dot)
        : renderNodes(node.otherwise, context, dot);
    })
    .join('');
}

function printed(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error('an object printed without toYaml');
}

function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return value !== undefined && value !== null && value !== false && value !== 0 && value !== '';
}

/** Words of a command: "quoted strings" kept whole. */
function words(command: string): string[] {
  return [...command.matchAll(/"(?:[^"\\]|\\.)*"|\S+/g)].map((match) => match[0]);
}

function evaluate(expression: string, context: Context, dot: unknown): unknown {
  const commands = expression.split(/\s\|\s/).map((command) => words(command.trim()));
  let piped: unknown = undefined;
  commands.forEach((command, index) => {
    const [head = '', ...args] = command;
    const values = args.map((arg) => operand(arg, dot));
    if (index > 0) values.push(piped);
    piped =
      head in functions || head === 'include'
        ? call(head, values, context)
        : values.length === 0
          ? operand(head, dot)
          : fail(`"${head}" is not a function here`);
  });
  return piped;
}

function fail(message: string): never {
  throw new Error(message);
}

function operand(word: string, dot: unknown): unknown {
  if (word.startsWith('"')) return JSON.parse(word) as string;
  if (/^-?\d+$/.test(word)) return Number(word);
  if (word === '.') return dot;
  if (!word.startsWith('.')) fail(`"${word}" is not a value`);
  let at: unknown = dot;
  for (const key of word.slice(1).split('.')) at = isObject(at) ? at[key] : undefined;
  return at;
}

const functions: Record<string, (...args: unknown[]) => unknown> = {
  required: (message, value) => (truthy(value) ? value : fail(String(message))),
  default: (fallback, value) => (truthy(value) ? value : fallback),
  not: (value) => !truthy(value),
  quote: (value) => JSON.stringify(printed(value)),
  b64enc: (value) => Buffer.from(printed(value)).toString('base64'),
  toYaml: (value) => stringify(value).trimEnd(),
  indent: (width, text) => indentLines(String(text), Number(width)),
  nindent: (width, text) => `\n${indentLines(String(text), Number(width))}`,
};

function indentLines(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => ' '.repeat(width) + line)
    .join('\n');
}

function call(name: string, args: unknown[], context: Context): unknown {
  if (name === 'include') {
    const [template, dot] = args;
    const body = context.defines.get(String(template)) ?? fail(`no template "${String(template)}"`);
    return renderNodes(body, context, dot);
  }
  return (functions[name] ?? fail(`no function ${name}`))(...args);
}
