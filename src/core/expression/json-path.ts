/**
 * The path syntax of JSON_PATH: `data.items[0].id`, `['key.with.dots']`.
 *
 *   path    := first ('.' name | '[' bracket ']')*
 *   first   := name | '[' bracket ']'
 *   name    := one or more characters other than . [ ] ' "
 *   bracket := 0 | [1-9][0-9]*  |  'quoted'  |  "quoted"   (backslash escapes)
 *
 * A literal path is checked when the expression is saved; a computed one
 * when it is used. Each segment remembers where it ends, so "not found"
 * errors can name the part of the path that was reached.
 */

type PathSegment =
  | { readonly kind: 'key'; readonly key: string; readonly end: number }
  | { readonly kind: 'index'; readonly index: number; readonly end: number };

type PathResult =
  | { readonly ok: true; readonly segments: readonly PathSegment[] }
  | { readonly ok: false; readonly index: number; readonly message: string };

const NAME = /[^.[\]'"]+/y;
const INDEX = /(?:0|[1-9][0-9]*)(?=\])/y;

function fail(index: number, message: string): PathResult {
  return { ok: false, index, message };
}

/** Reads a quoted key starting at `start` (a quote); returns it and the offset after the quote. */
function readQuoted(path: string, start: number): { key: string; end: number } | number {
  const q = path.charAt(start);
  let key = '';
  for (let i = start + 1; i < path.length; i++) {
    const ch = path.charAt(i);
    if (ch === q) return { key, end: i + 1 };
    if (ch === '\\') {
      i++;
      if (i >= path.length) break;
      key += path.charAt(i);
    } else {
      key += ch;
    }
  }
  return start; // unterminated: report where the quote opened
}

function readBracket(path: string, open: number): PathSegment | PathResult {
  const at = open + 1;
  const ch = path.charAt(at);
  let inner: PathSegment;
  let after: number;
  if (ch === "'" || ch === '"') {
    const quoted = readQuoted(path, at);
    if (typeof quoted === 'number') return fail(quoted, 'unterminated quoted key in path');
    after = quoted.end;
    inner = { kind: 'key', key: quoted.key, end: after + 1 };
  } else {
    INDEX.lastIndex = at;
    const digits = INDEX.exec(path)?.[0];
    if (digits === undefined || !Number.isSafeInteger(Number(digits))) {
      return fail(at, "expected an index or a quoted key after '[' in path");
    }
    after = at + digits.length;
    inner = { kind: 'index', index: Number(digits), end: after + 1 };
  }
  return path.charAt(after) === ']' ? inner : fail(after, "expected ']' in path");
}

export function parsePath(path: string): PathResult {
  if (path === '') return fail(0, 'path is empty');
  const segments: PathSegment[] = [];
  let i = 0;
  while (i < path.length) {
    const ch = path.charAt(i);
    if (ch === '[') {
      const segment = readBracket(path, i);
      if ('ok' in segment) return segment;
      segments.push(segment);
      i = segment.end;
      continue;
    }
    let nameStart = i;
    if (segments.length > 0) {
      if (ch !== '.') return fail(i, "expected '.' or '[' in path");
      nameStart = i + 1;
    }
    NAME.lastIndex = nameStart;
    const name = NAME.exec(path)?.[0];
    if (name === undefined) return fail(nameStart, 'expected a key name in path');
    i = nameStart + name.length;
    segments.push({ kind: 'key', key: name, end: i });
  }
  return { ok: true, segments };
}
