/**
 * Reading glTF JSON with its path at hand: each accessor names the JSON path it reads
 * (`accessors[3].count`) so that every complaint says where and what was expected.
 */
import { ImportError, quoteInput } from '../motion/import-error.js';

export type Json = Record<string, unknown>;

export class JsonFields {
  constructor(readonly file: string) {}

  fail(path: string, expected: string, found?: unknown): never {
    throw new ImportError({ file: this.file, path }, expected, found === undefined ? undefined : describe(found));
  }

  object(v: unknown, path: string): Json {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) this.fail(path, 'a JSON object', v);
    return v as Json;
  }

  array(v: unknown, path: string): unknown[] {
    if (!Array.isArray(v)) this.fail(path, 'a JSON array', v);
    return v as unknown[];
  }

  /** An array property, [] when absent. */
  optionalArray(o: Json, key: string, path: string): unknown[] {
    return o[key] === undefined ? [] : this.array(o[key], `${path}.${key}`);
  }

  string(v: unknown, path: string): string {
    if (typeof v !== 'string') this.fail(path, 'a string', v);
    return v as string;
  }

  number(v: unknown, path: string): number {
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(path, 'a finite number', v);
    return v as number;
  }

  /** An integer in [min, max]. */
  integer(v: unknown, path: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.fail(path, max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer in [${min}, ${max}]`, v);
    }
    return v as number;
  }

  /** An index into an array of `count` items called `what` (e.g. 'accessors'). */
  index(v: unknown, path: string, count: number, what: string): number {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= count) {
      this.fail(path, count === 0 ? `an index into ${what}, which is empty` : `an index into ${what} (0 to ${count - 1})`, v);
    }
    return v as number;
  }

  /** n finite numbers. */
  numbers(v: unknown, path: string, n: number): number[] {
    const a = this.array(v, path);
    if (a.length !== n) this.fail(path, `${n} numbers`, `${a.length} elements`);
    return a.map((x, k) => this.number(x, `${path}[${k}]`));
  }
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'object') return 'an object';
  return quoteInput(v);
}
