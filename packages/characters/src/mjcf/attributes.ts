/**
 * Typed reading of MJCF attribute values (after default classes are applied). Numbers are
 * whitespace-separated reals; NaN and infinities are refused. Errors point at the attribute, in
 * the element or in the default class it came from.
 */
import { errorAt, type SourcePos } from './errors.js';

export interface Attr {
  value: string;
  pos: SourcePos;
}

/** Resolved attributes of one element. */
export class Attrs {
  constructor(
    readonly tag: string,
    readonly pos: SourcePos,
    readonly map: Map<string, Attr>,
    /** Attributes written on the element itself (not inherited from a default class). */
    readonly own: ReadonlySet<string>,
  ) {}

  has(key: string): boolean {
    return this.map.has(key);
  }

  raw(key: string): string | undefined {
    return this.map.get(key)?.value;
  }

  where(key: string): SourcePos {
    return this.map.get(key)?.pos ?? this.pos;
  }

  fail(key: string | null, message: string): never {
    throw errorAt(key === null ? this.pos : this.where(key), `<${this.tag}>${key === null ? '' : ` ${key}`}: ${message}`);
  }

  string(key: string): string | undefined;
  string(key: string, fallback: string): string;
  string(key: string, fallback?: string): string | undefined {
    return this.raw(key) ?? fallback;
  }

  /** Reals, between min and max of them (max = min when omitted). */
  numbers(key: string, min: number, max = min): number[] | undefined {
    const a = this.map.get(key);
    if (!a) return undefined;
    const parts = a.value.trim().split(/\s+/).filter((s) => s.length > 0);
    const count = min === max ? `${min}` : `${min} to ${max}`;
    if (parts.length < min || parts.length > max) this.fail(key, `expected ${count} number${max === 1 ? '' : 's'} (got "${a.value}")`);
    return parts.map((p, k) => {
      const v = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(p) ? Number(p) : NaN;
      if (!Number.isFinite(v)) this.fail(key, `expected ${count} finite number${max === 1 ? '' : 's'}, element ${k} is "${p}"`);
      return v;
    });
  }

  number(key: string): number | undefined;
  number(key: string, fallback: number): number;
  number(key: string, fallback?: number): number | undefined {
    return this.numbers(key, 1)?.[0] ?? fallback;
  }

  vec(key: string, n: number): number[] | undefined {
    return this.numbers(key, n);
  }

  keyword<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
    const v = this.raw(key);
    if (v === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(v)) this.fail(key, `expected one of ${allowed.map((a) => `"${a}"`).join(', ')} (got "${v}")`);
    return v as T;
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.keyword(key, ['true', 'false'] as const, fallback ? 'true' : 'false');
    return v === 'true';
  }
}

/** Attributes of an element as written (no default classes). */
export function ownAttrs(el: { name: string; attrs: Record<string, string>; attrPos: Record<string, SourcePos>; pos: SourcePos }): Attrs {
  const map = new Map<string, Attr>();
  for (const [k, v] of Object.entries(el.attrs)) map.set(k, { value: v, pos: el.attrPos[k] ?? el.pos });
  return new Attrs(el.name, el.pos, map, new Set(map.keys()));
}
