/**
 * The HIERARCHY section of a BVH file:
 *
 *   HIERARCHY
 *   ROOT name { OFFSET x y z  CHANNELS n c1 .. cn  (JOINT name { ... } | End Site { OFFSET x y z })* }
 *   MOTION
 *
 * Joints come out parents first, in file order, with their channels' column offsets in a motion
 * row. Keywords are matched case-insensitively; names are kept as written.
 */
import { ImportError, quoteInput } from '../motion/import-error.js';
import { channelFromName, type BvhChannel } from './channels.js';
import { expectNumber, type Token, type TokenStream } from './text.js';

export interface BvhJoint {
  name: string;
  parent: number;
  /** OFFSET as written (file units). */
  offset: [number, number, number];
  channels: BvhChannel[];
  /** Column of the joint's first channel in a motion row. */
  column: number;
  /** End Site OFFSETs as written. */
  endSites: [number, number, number][];
  /** Line of the ROOT/JOINT keyword. */
  line: number;
}

export interface BvhHierarchy {
  joints: BvhJoint[];
  channelCount: number;
  /** 0-based index of the line after the MOTION keyword. */
  motionLine: number;
  /** 1-based line of the MOTION keyword. */
  motionKeywordLine: number;
}

const KEYWORDS = new Set(['hierarchy', 'root', 'joint', 'end', 'site', 'offset', 'channels', 'motion', '{', '}']);
const isKeyword = (t: string) => KEYWORDS.has(t.toLowerCase());
const is = (t: Token | undefined, kw: string) => t !== undefined && t.text.toLowerCase() === kw.toLowerCase();

export function parseHierarchy(ts: TokenStream, file: string): BvhHierarchy {
  const joints: BvhJoint[] = [];
  let columns = 0;
  const eof = (expected: string): never => {
    throw new ImportError({ file, line: ts.lastLine }, expected, 'the end of the file (truncated?)');
  };
  const unexpected = (tok: Token | undefined, expected: string): never => {
    if (!tok) return eof(expected);
    throw new ImportError({ file, line: tok.line }, expected, quoteInput(tok.text));
  };

  const first = ts.next();
  if (!is(first, 'HIERARCHY')) unexpected(first, "'HIERARCHY' at the start of a BVH file");
  const rootTok = ts.next();
  if (!is(rootTok, 'ROOT')) unexpected(rootTok, "'ROOT' after HIERARCHY");

  const readOffset = (what: string): [number, number, number] => [
    expectNumber(ts.next(), file, `x of the OFFSET of ${what}`, ts.lastLine),
    expectNumber(ts.next(), file, `y of the OFFSET of ${what}`, ts.lastLine),
    expectNumber(ts.next(), file, `z of the OFFSET of ${what}`, ts.lastLine),
  ];

  const readJoint = (kw: Token, parent: number): void => {
    const kind = kw.text.toUpperCase();
    // the name: the rest of the keyword's line, up to a '{'
    const nameParts: string[] = [];
    for (let t = ts.peek(); t && t.line === kw.line && t.text !== '{' && t.text !== '}'; t = ts.peek()) nameParts.push(ts.next()!.text);
    const name = nameParts.join(' ');
    if (name.length === 0) throw new ImportError({ file, line: kw.line }, `a name after ${kind}`, 'nothing');
    const what = `${kind} ${name}`;
    const open = ts.next();
    if (open?.text !== '{') unexpected(open, `'{' opening ${what}`);
    const index = joints.length;
    const joint: BvhJoint = { name, parent, offset: [0, 0, 0], channels: [], column: columns, endSites: [], line: kw.line };
    joints.push(joint);
    let sawOffset = false, sawChannels = false;
    for (;;) {
      const tok = ts.next();
      if (!tok) eof(`'}' closing ${what} (opened at line ${open!.line})`);
      const t = tok!.text.toLowerCase();
      if (t === '}') break;
      if (t === 'offset') {
        if (sawOffset) throw new ImportError({ file, line: tok!.line }, `one OFFSET in ${what}`, 'a second OFFSET');
        joint.offset = readOffset(what);
        sawOffset = true;
      } else if (t === 'channels') {
        if (sawChannels) throw new ImportError({ file, line: tok!.line }, `one CHANNELS line in ${what}`, 'a second CHANNELS');
        if (joints.length - 1 !== index) throw new ImportError({ file, line: tok!.line }, `CHANNELS of ${what} before its child joints`, 'CHANNELS after a child');
        readChannels(joint, what);
        sawChannels = true;
        columns += joint.channels.length;
      } else if (t === 'joint') {
        readJoint(tok!, index);
      } else if (t === 'end') {
        const site = ts.next();
        if (!is(site, 'Site')) unexpected(site, "'Site' after 'End'");
        const o = ts.next();
        if (o?.text !== '{') unexpected(o, `'{' opening the End Site of ${what}`);
        const off = ts.next();
        if (!is(off, 'OFFSET')) unexpected(off, `OFFSET in the End Site of ${what}`);
        joint.endSites.push(readOffset(`the End Site of ${what}`));
        const c = ts.next();
        if (c?.text !== '}') unexpected(c, `'}' closing the End Site of ${what} (an End Site has only an OFFSET)`);
      } else if (t === 'motion' || t === 'root') {
        unexpected(tok, `'}' closing ${what} (opened at line ${open!.line}) before ${tok!.text}`);
      } else {
        unexpected(tok, `OFFSET, CHANNELS, JOINT, End Site or '}' in ${what}`);
      }
    }
    if (!sawOffset) throw new ImportError({ file, line: kw.line }, `an OFFSET in ${what}`, 'none');
  };

  const readChannels = (joint: BvhJoint, what: string): void => {
    const countTok = ts.next();
    if (!countTok || !/^\d+$/.test(countTok.text)) unexpected(countTok, `the channel count of ${what} (an integer 0 to 6)`);
    const count = Number(countTok!.text);
    if (count > 6) throw new ImportError({ file, line: countTok!.line }, `at most 6 channels in ${what} (each position and rotation axis once)`, String(count));
    for (let k = 0; k < count; k++) {
      const tok = ts.next();
      if (!tok || isKeyword(tok.text)) {
        unexpected(tok, `${count} channel names for ${what} (found ${k})`);
      }
      const c = channelFromName(tok!.text);
      if (!c) throw new ImportError({ file, line: tok!.line }, `a channel name of ${what} (Xposition, Yposition, Zposition, Xrotation, Yrotation or Zrotation)`, quoteInput(tok!.text));
      if (joint.channels.includes(c)) throw new ImportError({ file, line: tok!.line }, `each channel once in ${what}`, `${c} twice`);
      joint.channels.push(c);
    }
  };

  readJoint(rootTok!, -1);
  const motion = ts.next();
  if (!is(motion, 'MOTION')) {
    if (is(motion, 'ROOT')) throw new ImportError({ file, line: motion!.line }, 'MOTION after the first ROOT (this reader takes one skeleton per file)', "a second 'ROOT'");
    unexpected(motion, `'MOTION' after the hierarchy (the braces of ROOT ${joints[0].name} must balance)`);
  }
  const rest = ts.restOfLine();
  if (rest.length > 0) throw new ImportError({ file, line: motion!.line }, "nothing after 'MOTION' on its line", quoteInput(rest.join(' ')));
  return { joints, channelCount: columns, motionLine: ts.nextLineIndex, motionKeywordLine: motion!.line };
}
