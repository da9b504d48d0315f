/**
 * The example in the package README runs as written against the package (its import line is
 * bound to this package's exports), and prints what its comments say.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as lib from '../src/index.js';

describe('README', () => {
  it('its example runs and prints the kinetic energy and the joint info it promises', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(readme);
    expect(block, 'a ```ts block in README.md').not.toBeNull();
    const importLine = /^import \{([^}]*)\} from '@sinew\/featherstone';$/m;
    expect(block![1]).toMatch(importLine);
    const code = block![1].replace(importLine, 'const {$1} = lib;');
    const logged: unknown[][] = [];
    new Function('lib', 'console', code)(lib, { log: (...a: unknown[]) => logged.push(a) });
    expect(logged.length).toBe(1);
    const [energy, joint] = logged[0] as [number, lib.JointInfo];
    expect(energy).toBeGreaterThan(0);
    expect(joint).toMatchObject({ q: 1, v: 1, nq: 1, nv: 1 });
  });
});
