/**
 * Where JSON text goes wrong. JSON.parse says what failed but not always where (Node 20's
 * "Unexpected end of JSON input", "Unexpected token 'x', ... is not valid JSON"), so the readers of
 * JSON text (the character format, glTF) find the line and column of the first syntax error with
 * this small scanner and name it. It is only run after JSON.parse has failed.
 */

export interface JsonSyntaxError {
  /** Offset (UTF-16 code units) of the first character that cannot continue valid JSON. */
  offset: number;
  /** 1-based line and column of that offset. */
  line: number;
  column: number;
  /** What the grammar allows there. */
  expected: string;
  /** What is there instead, short. */
  found: string;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The first syntax error of `text`, or undefined when it is valid JSON (RFC 8259). Iterative: any nesting depth. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const n = text.length;
  let i = 0;
  const stack: number[] = []; // 0: array, 1: object
  const fail = (expected: string): JsonSyntaxError => {
    let line = 1, lineStart = 0;
    for (let k = 0; k < i && k < n; k++) {
      const c = text.charCodeAt(k);
      if (c === 10 || (c === 13 && text.charCodeAt(k + 1) !== 10)) { line++; lineStart = k + 1; }
    }
    const found = i >= n ? 'the end of the text' : JSON.stringify(text.slice(i, i + 12));
    return { offset: i, line, column: i - lineStart + 1, expected, found };
  };
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  /** At a '"': scans the string; returns what was expected when it is malformed. */
  const string = (): string | undefined => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) { i++; return undefined; }
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) { i++; return 'four hex digits after \\u'; }
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else { i++; return 'an escape sequence (\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)'; }
      } else if (c < 0x20) return 'a closing double quote (control characters in strings must be escaped)';
      else i++;
    }
    return 'a closing double quote';
  };
  let want: 'value' | 'key' | 'after' = 'value';
  for (;;) {
    ws();
    if (want === 'value') {
      const c = text[i];
      if (c === '{' || c === '[') {
        i++;
        ws();
        if (text[i] === (c === '{' ? '}' : ']')) { i++; want = 'after'; continue; }
        stack.push(c === '{' ? 1 : 0);
        want = c === '{' ? 'key' : 'value';
        continue;
      }
      if (c === '"') {
        const e = string();
        if (e) return fail(e);
      } else if (c === '-' || (c >= '0' && c <= '9')) {
        NUMBER.lastIndex = i;
        const m = NUMBER.exec(text);
        if (!m || m[0] === '-') return fail('a number');
        i += m[0].length;
      } else {
        const lit = ['true', 'false', 'null'].find((l) => text.startsWith(l, i));
        if (!lit) return fail('a JSON value (object, array, string, number, true, false or null)');
        i += lit.length;
      }
      want = 'after';
      continue;
    }
    if (want === 'key') {
      if (text[i] !== '"') return fail('a property name in double quotes');
      const e = string();
      if (e) return fail(e);
      ws();
      if (text[i] !== ':') return fail("':' after the property name");
      i++;
      want = 'value';
      continue;
    }
    if (stack.length === 0) return i < n ? fail('the end of the text after the JSON value') : undefined;
    const obj = stack[stack.length - 1] === 1;
    if (text[i] === ',') { i++; want = obj ? 'key' : 'value'; continue; }
    if (text[i] === (obj ? '}' : ']')) { i++; stack.pop(); continue; }
    return fail(obj ? "',' or '}' after a property value" : "',' or ']' after an array element");
  }
}
