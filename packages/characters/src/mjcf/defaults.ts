/**
 * MJCF default classes (MuJoCo XML Reference, "default"; Modeling guide, "Default settings"). The
 * top-level <default> is the class "main"; nested <default class="..."> classes inherit from their
 * parent. An element takes the attributes of its own `class`, else of the nearest enclosing
 * `childclass` (of a body or frame), else of "main", and its own attributes override them.
 * <freejoint> takes no defaults.
 */
import { Attrs, type Attr } from './attributes.js';
import { errorAt } from './errors.js';
import type { XmlElement } from './xml.js';

type TagDefaults = Map<string, Map<string, Attr>>;

export class DefaultClasses {
  private readonly classes = new Map<string, TagDefaults>([['main', new Map()]]);

  /** Reads a top-level <default> element (the "main" class and its descendants). */
  addTopLevel(el: XmlElement): void {
    const cls = el.attrs.class;
    if (cls !== undefined && cls !== 'main') throw errorAt(el.attrPos.class, `the top-level <default> is the class "main" (got class="${cls}", expected "main" or no class)`);
    this.fill(el, this.classes.get('main')!);
  }

  /** A class's own settings first, then its nested classes, which inherit all of them (as MuJoCo's reader does). */
  private fill(el: XmlElement, own: TagDefaults): void {
    for (const child of el.children) {
      if (child.name === 'default') continue;
      const m = own.get(child.name) ?? new Map<string, Attr>();
      for (const [k, v] of Object.entries(child.attrs)) {
        if (k === 'class' || k === 'name') throw errorAt(child.attrPos[k], `<${child.name}> in a default class takes no ${k} attribute (expected it on the element that uses the class)`);
        m.set(k, { value: v, pos: child.attrPos[k] });
      }
      own.set(child.name, m);
      if (child.children.length > 0) throw errorAt(child.children[0].pos, `unexpected <${child.children[0].name}> inside a default <${child.name}>`);
    }
    for (const child of el.children) {
      if (child.name !== 'default') continue;
      const cls = child.attrs.class;
      if (cls === undefined || cls.length === 0) throw errorAt(child.pos, 'a nested <default> needs a class attribute: expected class="name"');
      if (this.classes.has(cls)) throw errorAt(child.attrPos.class, `default class "${cls}" is defined twice (expected unique class names)`);
      const inherited: TagDefaults = new Map();
      for (const [tag, attrs] of own) inherited.set(tag, new Map(attrs));
      this.classes.set(cls, inherited);
      this.fill(child, inherited);
    }
  }

  /** The defined class names, for error messages. */
  describe(): string {
    const names = [...this.classes.keys()];
    return names.length === 0 ? 'a class defined in <default>, and none is' : `one of ${names.slice(0, 12).map((c) => `"${c}"`).join(', ')}${names.length > 12 ? ', ...' : ''}`;
  }

  has(name: string): boolean {
    return this.classes.has(name);
  }

  /** Attributes of `el` after applying its default class (`childclass` = the enclosing childclass, or "main"). */
  resolve(el: XmlElement, childclass: string, useDefaults = true): Attrs {
    const map = new Map<string, Attr>();
    if (useDefaults) {
      const explicit = el.attrs.class;
      const cls = explicit ?? childclass;
      const d = this.classes.get(cls);
      if (!d) throw errorAt(explicit !== undefined ? el.attrPos.class : el.pos, `unknown default class "${cls}" (expected ${this.describe()})`);
      for (const [k, v] of d.get(el.name) ?? []) map.set(k, v);
    }
    const own = new Set<string>();
    for (const [k, v] of Object.entries(el.attrs)) {
      if (k === 'class') continue;
      map.set(k, { value: v, pos: el.attrPos[k] });
      own.add(k);
    }
    return new Attrs(el.name, el.pos, map, own);
  }
}
