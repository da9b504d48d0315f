/**
 * <include file="..."/>: the included file is an XML document whose root is <mujoco>; its children
 * take the include element's place (MuJoCo XML Reference, "include"). Paths are passed as written
 * to the caller's reader, which resolves them (MuJoCo resolves them against the main model's
 * directory). Includes nest; a file included twice, or including itself, is an error.
 */
import { errorAt } from './errors.js';
import { parseXML, type XmlElement } from './xml.js';

/** Reads the text of a file named by an MJCF <include>. */
export type IncludeReader = (path: string) => string;

export function expandIncludes(root: XmlElement, read: IncludeReader | undefined, mainFile: string): XmlElement {
  const seen = new Set<string>([mainFile]);
  const expand = (el: XmlElement, stack: string[]): void => {
    const out: XmlElement[] = [];
    for (const child of el.children) {
      if (child.name !== 'include') {
        expand(child, stack);
        out.push(child);
        continue;
      }
      const file = child.attrs.file;
      if (file === undefined || file.length === 0) throw errorAt(child.pos, '<include> needs a file attribute: expected file="path"');
      if (stack.includes(file)) throw errorAt(child.attrPos.file, `include cycle: ${[...stack, file].join(' -> ')} (expected every file to be included once, without cycles)`);
      if (seen.has(file)) throw errorAt(child.attrPos.file, `"${file}" is included more than once (expected every file to be included once)`);
      if (!read) throw errorAt(child.attrPos.file, `cannot include "${file}": expected a readInclude option to read included files`);
      let text: string;
      try {
        text = read(file);
      } catch (e) {
        throw errorAt(child.attrPos.file, `cannot read included file "${file}": ${(e as Error).message} (expected a file that readInclude can read)`);
      }
      if (typeof text !== 'string') throw errorAt(child.attrPos.file, `readInclude("${file}") returned ${typeof text}, expected the file's text`);
      seen.add(file);
      const inc = parseXML(text, file);
      if (inc.name !== 'mujoco') throw errorAt(inc.pos, `an included file's root element must be <mujoco>, found <${inc.name}> (expected <mujoco>)`);
      expand(inc, [...stack, file]);
      out.push(...inc.children);
    }
    el.children = out;
  };
  expand(root, [mainFile]);
  return root;
}
