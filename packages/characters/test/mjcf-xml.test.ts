/** The MJCF importer's XML parser: what it keeps, where it says things are, what it refuses. */
import { describe, expect, it } from 'vitest';
import { MJCFError, parseXML } from '../src/mjcf/index.js';

describe('XML parser', () => {
  it('reads elements, attributes in both quotes, entities and character references; skips comments, PIs, CDATA, DOCTYPE', () => {
    const text = '\uFEFF<?xml version="1.0"?>\n<!DOCTYPE mujoco [ <!ENTITY x "y"> ]>\n<!-- c -->\n<a k=\'v 1\' e="&lt;&amp;&gt;&quot;&apos;&#65;&#x42;">\n  text <![CDATA[ <not/> ]]> <?pi x?>\n  <b/><!-- <c/> --><c z="1"></c>\n</a>\n<!-- after -->\n';
    const root = parseXML(text, 'doc.xml');
    expect(root.name).toBe('a');
    expect(root.attrs).toEqual({ k: 'v 1', e: '<&>"\'AB' });
    expect(root.children.map((c) => c.name)).toEqual(['b', 'c']);
    expect(root.children[1].attrs.z).toBe('1');
    // positions: 1-based line and column of the "<" and of each attribute name
    expect(root.pos).toEqual({ file: 'doc.xml', line: 4, column: 1 });
    expect(root.attrPos.e).toEqual({ file: 'doc.xml', line: 4, column: 12 });
    expect(root.children[0].pos).toMatchObject({ line: 6, column: 3 });
    expect(root.children[1].pos).toMatchObject({ line: 6, column: 20 });
  });

  it('counts lines the same with CRLF line endings', () => {
    const root = parseXML('<a>\r\n  <b/>\r\n  <c/>\r\n</a>\r\n');
    expect(root.children.map((c) => [c.pos.line, c.pos.column])).toEqual([[2, 3], [3, 3]]);
  });

  const bad: [string, number, number, RegExp][] = [
    ['', 1, 1, /expected a root element, found the end of the file/],
    ['hello', 1, 1, /expected a root element, found text/],
    ['<a>', 1, 4, /<a> opened at line 1, column 1 is not closed/],
    ['<a b="1>', 1, 6, /the value of the attribute "b" is not closed/],
    ['<a b="<"/>', 1, 7, /"<" is not allowed in the value/],
    ['<a b/>', 1, 5, /expected "=" after the attribute name "b"/],
    ['<a><!-- x </a>', 1, 4, /a comment is not closed with "-->"/],
    ['<a>&bogus;</a>', 1, 4, /unknown entity "&bogus;"/],
    ['<a>AT&T</a>', 1, 6, /expected ";" to end an entity reference/],
    ['<a b="1"c="2"/>', 1, 9, /expected whitespace, ">" or "\/>"/],
    ['<a></b>', 1, 4, /mismatched closing tag <\/b>/],
    ['<a/>x', 1, 5, /unexpected text after the root element/],
    ['<1a/>', 1, 2, /expected an element name after "<"/],
  ];
  it(`refuses ${bad.length} malformed documents with line and column`, () => {
    expect(bad.length).toBe(13);
    for (const [text, line, column, message] of bad) {
      let err: unknown;
      try {
        parseXML(text);
      } catch (e) {
        err = e;
      }
      expect(err, text).toBeInstanceOf(MJCFError);
      expect((err as MJCFError).message, text).toMatch(message);
      expect([(err as MJCFError).line, (err as MJCFError).column], `${text}: ${(err as Error).message}`).toEqual([line, column]);
    }
  });
});
