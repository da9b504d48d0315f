/**
 * The MOTION section of a BVH file: "Frames: n", "Frame Time: dt", then one row per frame with
 * one value per channel, in the order the channels were declared in the hierarchy. Blank lines
 * are skipped; every other line after Frame Time is a row.
 */
import { ImportError, quoteInput } from '../motion/import-error.js';
import { lineTokens, MAX_MAGNITUDE, parseNumber, scanNumbers } from './text.js';

export interface BvhMotion {
  frameCount: number;
  frameTime: number;
  /** frameCount x channelCount values as written. */
  values: Float64Array;
}

export function parseMotion(
  lines: readonly string[],
  start: number,
  channelCount: number,
  describeColumn: (column: number) => string,
  file: string,
): BvhMotion {
  let i = start;
  const nextNonBlank = (): string[] | undefined => {
    for (; i < lines.length; i++) {
      const t = lineTokens(lines[i]);
      if (t.length > 0) return t;
    }
    return undefined;
  };
  const eof = (expected: string): never => {
    throw new ImportError({ file, line: lines.length }, expected, 'the end of the file (truncated?)');
  };

  // Frames: n   (the colon may be glued to the number)
  const framesTokens = nextNonBlank() ?? eof("'Frames: <count>' after MOTION");
  const framesLine = i + 1;
  const framesText = framesTokens.join(' ').match(/^Frames\s*:\s*(\S*)\s*$/i);
  if (!framesText) throw new ImportError({ file, line: framesLine }, "'Frames: <count>' after MOTION", quoteInput(framesTokens.join(' ')));
  if (!/^\d+$/.test(framesText[1])) throw new ImportError({ file, line: framesLine }, 'a whole number of frames after Frames:', quoteInput(framesText[1]));
  const frameCount = Number(framesText[1]);
  i++;

  const timeTokens = nextNonBlank() ?? eof("'Frame Time: <seconds>' after Frames");
  const timeLine = i + 1;
  const timeText = timeTokens.join(' ').match(/^Frame\s+Time\s*:\s*(\S*)\s*$/i);
  if (!timeText) throw new ImportError({ file, line: timeLine }, "'Frame Time: <seconds>' after Frames", quoteInput(timeTokens.join(' ')));
  const frameTime = parseNumber(timeText[1]);
  if (frameTime === undefined || frameTime < 0 || (frameTime === 0 && frameCount > 1)) {
    throw new ImportError({ file, line: timeLine }, 'a positive finite frame time in seconds after Frame Time:', quoteInput(timeText[1]));
  }
  i++;

  // each row takes a line: a count beyond the lines left is a truncated file (and no huge allocation)
  if (frameCount > lines.length - i) {
    throw new ImportError({ file, line: lines.length }, `${frameCount} motion rows as declared by Frames: at line ${framesLine} (truncated file?)`, `only ${lines.length - i} lines left`);
  }
  const values = new Float64Array(frameCount * channelCount);
  let frame = 0;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim().length === 0) continue;
    if (frame >= frameCount) {
      throw new ImportError({ file, line: i + 1 }, `${frameCount} motion rows as declared by Frames: at line ${framesLine}`, 'another row');
    }
    const o = frame * channelCount;
    const got = scanNumbers(line, values, o, channelCount);
    if (got < 0) {
      const c = -got - 1;
      const tok = line.trim().split(/\s+/)[c];
      throw new ImportError(
        { file, line: i + 1 },
        `a finite decimal number (|x| <= ${MAX_MAGNITUDE}) for value ${c + 1} of motion row ${frame + 1}${c < channelCount ? ` (${describeColumn(c)})` : ''}`,
        quoteInput(tok),
      );
    }
    if (got !== channelCount) {
      throw new ImportError(
        { file, line: i + 1 },
        `${channelCount} values in motion row ${frame + 1} (one per channel declared in the hierarchy)`,
        `${got}`,
      );
    }
    frame++;
  }
  if (frame !== frameCount) {
    throw new ImportError({ file, line: lines.length }, `${frameCount} motion rows as declared by Frames: at line ${framesLine} (truncated file?)`, `${frame}`);
  }
  return { frameCount, frameTime, values };
}
