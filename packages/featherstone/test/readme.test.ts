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

  it("the detMath example runs and prints what its comments say", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## The same bits on every engine'));
    const block = /```ts\n([\s\S]*?)```/.exec(section);
    expect(block, 'a ```ts block in the detMath section').not.toBeNull();
    const code = block![1].replace(/^import \{([^}]*)\} from '@sinew\/featherstone';$/m, 'const {$1} = lib;');
    const logged: unknown[][] = [];
    new Function('lib', 'console', code)(lib, { log: (...a: unknown[]) => logged.push(a) });
    const [yaw, dir, length, e] = logged[0] as [number, number[], number, number];
    // atan2(3, 4) = 0.643501108793284386802809228717... rounds to 0.6435011087932844;
    // exp(1.234567) = 3.436890025088216608 (50 digits, mathjs) lies between the doubles
    // 3.436890025088216394 and ...6838, 0.48 and 0.52 ulp away: fdlibm's algorithm (and V8's)
    // gives the second, the C libraries of JavaScriptCore and QuickJS the first; detMath gives
    // the second in every engine
    expect(yaw).toBe(0.6435011087932844);
    expect(dir).toEqual([0.8, 0, 0.6]);
    expect(length).toBe(1);
    expect(e).toBe(3.436890025088217);
  });
});
