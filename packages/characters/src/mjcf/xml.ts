/**
 * A small XML parser, enough for MJCF: elements, attributes (single or double quotes), comments,
 * processing instructions, CDATA, a skipped DOCTYPE, the five predefined entities and character
 * references. Text content is dropped (MJCF keeps its data in attributes). Every element and
 * attribute remembers its file, line and column; malformed input throws an MJCFError at the
 * place of the problem (XML 1.0, W3C Recommendation, 5th ed., sections 2.1-2.8 and 4.1 are the
 * grammar followed here; namespaces and DTDs are not interpreted).
 */
import { MJCFError, type SourcePos } from './errors.js';

/** An element of a parsed XML document: name, attributes, children and source positions. */
export interface XmlElement {
  name: string;
  /** Attribute values, entities decoded, in document order. */
  attrs: Record<string, string>;
  /** Position of each attribute's name. */
  attrPos: Record<string, SourcePos>;
  children: XmlElement[];
  pos: SourcePos;
}

const NAME_START = /[A-Za-z_:\u00C0-\uFFFF]/;
const NAME_CHAR = /[-A-Za-z0-9_:.\u00B7\u00C0-\uFFFF]/;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

class Reader {
  private readonly lineStarts: number[] = [0];
  i = 0;

  constructor(readonly text: string, readonly file: string) {
    for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) === 10) this.lineStarts.push(k + 1);
  }

  posOf(index: number): SourcePos {
    let lo = 0, hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.file, line: lo + 1, column: index - this.lineStarts[lo] + 1 };
  }

  fail(message: string, index = this.i): never {
    const p = this.posOf(index);
    throw new MJCFError(p.file, p.line, p.column, message);
  }

  get done(): boolean {
    return this.i >= this.text.length;
  }

  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.i);
  }

  skipSpace(): void {
    while (this.i < this.text.length && /\s/.test(this.text[this.i])) this.i++;
  }

  /** Skips past `end`, failing with `what` if the text ends first. */
  skipPast(end: string, what: string, from = this.i): void {
    const k = this.text.indexOf(end, this.i);
    if (k < 0) this.fail(`unexpected end of file: ${what} is not closed with "${end}"`, from);
    this.i = k + end.length;
  }

  name(what: string): string {
    const start = this.i;
    if (this.done || !NAME_START.test(this.text[this.i])) {
      this.fail(this.done ? `unexpected end of file: expected ${what}` : `expected ${what}, found ${JSON.stringify(this.text[this.i])}`);
    }
    this.i++;
    while (!this.done && NAME_CHAR.test(this.text[this.i])) this.i++;
    return this.text.slice(start, this.i);
  }

  decode(raw: string, start: number): string {
    if (!raw.includes('&')) return raw;
    return raw.replace(/&([^;]*);?/g, (m, body: string, off: number) => {
      if (!m.endsWith(';')) this.fail('expected ";" to end an entity reference ("&" must be written "&amp;")', start + off);
      if (body.startsWith('#x') || body.startsWith('#X')) {
        const c = parseInt(body.slice(2), 16);
        if (!/^[0-9a-fA-F]+$/.test(body.slice(2)) || c > 0x10ffff) this.fail(`invalid character reference "&${body};" (expected &#digits; or &#xhex; up to 0x10FFFF)`, start + off);
        return String.fromCodePoint(c);
      }
      if (body.startsWith('#')) {
        const c = parseInt(body.slice(1), 10);
        if (!/^[0-9]+$/.test(body.slice(1)) || c > 0x10ffff) this.fail(`invalid character reference "&${body};" (expected &#digits; or &#xhex; up to 0x10FFFF)`, start + off);
        return String.fromCodePoint(c);
      }
      const e = ENTITIES[body];
      if (e === undefined) this.fail(`unknown entity "&${body};" (expected one of &lt; &gt; &amp; &quot; &apos;)`, start + off);
      return e;
    });
  }
}

/** Skips comments, processing instructions, DOCTYPE and whitespace between elements; false if nothing was skipped. */
function skipMisc(r: Reader, allowDoctype: boolean): boolean {
  const start = r.i;
  for (;;) {
    r.skipSpace();
    if (r.startsWith('<!--')) {
      const at = r.i;
      r.i += 4;
      r.skipPast('-->', 'a comment', at);
    } else if (r.startsWith('<?')) {
      const at = r.i;
      r.i += 2;
      r.skipPast('?>', 'a processing instruction', at);
    } else if (allowDoctype && r.startsWith('<!DOCTYPE')) {
      const at = r.i;
      let depth = 0;
      for (; !r.done; r.i++) {
        const c = r.text[r.i];
        if (c === '[') depth++;
        else if (c === ']') depth--;
        else if (c === '>' && depth <= 0) break;
      }
      if (r.done) r.fail('unexpected end of file: DOCTYPE is not closed with ">"', at);
      r.i++;
    } else return r.i !== start;
  }
}

function parseElement(r: Reader): XmlElement {
  const open = r.i;
  r.i++; // '<'
  const name = r.name('an element name after "<"');
  const el: XmlElement = { name, attrs: {}, attrPos: {}, children: [], pos: r.posOf(open) };
  // attributes
  for (;;) {
    const before = r.i;
    r.skipSpace();
    if (r.done) r.fail(`unexpected end of file inside the start tag <${name}>`, open);
    if (r.startsWith('/>')) {
      r.i += 2;
      return el;
    }
    if (r.startsWith('>')) {
      r.i++;
      break;
    }
    if (r.i === before) r.fail(`expected whitespace, ">" or "/>" in the start tag <${name}>, found ${JSON.stringify(r.text[r.i])}`);
    const at = r.i;
    const an = r.name(`an attribute name, ">" or "/>" in <${name}>`);
    r.skipSpace();
    if (!r.startsWith('=')) r.fail(`expected "=" after the attribute name "${an}"`);
    r.i++;
    r.skipSpace();
    const q = r.text[r.i];
    if (q !== '"' && q !== "'") r.fail(`expected a quoted value for the attribute "${an}"`);
    const vs = r.i + 1;
    const ve = r.text.indexOf(q, vs);
    if (ve < 0) r.fail(`unexpected end of file: the value of the attribute "${an}" is not closed with ${q}`, r.i);
    const raw = r.text.slice(vs, ve);
    const lt = raw.indexOf('<');
    if (lt >= 0) r.fail(`"<" is not allowed in the value of the attribute "${an}" (expected the closing quote before it: a missing quote?)`, vs + lt);
    if (Object.prototype.hasOwnProperty.call(el.attrs, an)) r.fail(`duplicate attribute "${an}" in <${name}> (expected each attribute once)`, at);
    el.attrs[an] = r.decode(raw, vs);
    el.attrPos[an] = r.posOf(at);
    r.i = ve + 1;
  }
  // content
  for (;;) {
    if (r.done) {
      const p = el.pos;
      r.fail(`unexpected end of file: <${name}> opened at line ${p.line}, column ${p.column} is not closed`);
    }
    if (r.startsWith('</')) {
      const at = r.i;
      r.i += 2;
      const close = r.name('an element name after "</"');
      if (close !== name) r.fail(`mismatched closing tag </${close}>: expected </${name}> for the element opened at line ${el.pos.line}, column ${el.pos.column}`, at);
      r.skipSpace();
      if (!r.startsWith('>')) r.fail(`expected ">" to end the closing tag </${close}>`);
      r.i++;
      return el;
    }
    if (r.startsWith('<!--') || r.startsWith('<?')) {
      skipMisc(r, false);
      continue;
    }
    if (r.startsWith('<![CDATA[')) {
      const at = r.i;
      r.skipPast(']]>', 'a CDATA section', at);
      continue;
    }
    if (r.startsWith('<!')) r.fail('unexpected markup declaration inside an element');
    if (r.startsWith('<')) {
      el.children.push(parseElement(r));
      continue;
    }
    // text: dropped, but entities must be well formed
    const k = r.text.indexOf('<', r.i);
    const end = k < 0 ? r.text.length : k;
    r.decode(r.text.slice(r.i, end), r.i);
    r.i = end;
  }
}

/** Parses an XML document and returns its root element. */
export function parseXML(text: string, file = '(xml)'): XmlElement {
  const r = new Reader(text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text, file);
  skipMisc(r, true);
  if (r.done) r.fail('expected a root element, found the end of the file');
  if (!r.startsWith('<')) r.fail(`expected a root element, found text ${JSON.stringify(r.text.slice(r.i, r.i + 20))}`);
  const root = parseElement(r);
  skipMisc(r, false);
  if (!r.done) r.fail(r.startsWith('<') ? 'expected a single root element: a second element follows the root' : 'unexpected text after the root element');
  return root;
}
