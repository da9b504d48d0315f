/**
 * The one error type every importer throws for malformed input. It names the file, the place in
 * it (a 1-based line for text formats, a JSON path or node for glTF) and what was expected there.
 */

export interface ImportErrorLocation {
  /** File name as given to the importer (default '<input>'). */
  file: string;
  /** 1-based line number (text formats). */
  line?: number;
  /** JSON path (e.g. `accessors[3].count`), byte range or node description. */
  path?: string;
}

/** Thrown by an importer for a file it cannot read; the message names the file, the line or node, and what was expected. */
export class ImportError extends Error {
  readonly file: string;
  readonly line: number | undefined;
  readonly path: string | undefined;
  /** What the importer expected at this place. */
  readonly expected: string;
  /** What it found instead, when there is something to show. */
  readonly found: string | undefined;

  constructor(where: ImportErrorLocation, expected: string, found?: string) {
    const place = where.line !== undefined ? `${where.file}:${where.line}` : where.file;
    const path = where.path ? ` ${where.path}:` : '';
    super(`${place}:${path} expected ${expected}${found !== undefined ? `, found ${found}` : ''}`);
    this.name = 'ImportError';
    this.file = where.file;
    this.line = where.line;
    this.path = where.path;
    this.expected = expected;
    this.found = found;
  }
}

/** Short printable form of a piece of input for error messages. */
export function quoteInput(s: unknown, max = 40): string {
  const text = typeof s === 'string' ? s : JSON.stringify(s) ?? String(s);
  const clipped = text.length > max ? `${text.slice(0, max)}...` : text;
  return typeof s === 'string' ? `'${clipped}'` : clipped;
}

/**
 * Runs an importer body; an error that is not an ImportError (a defect, not bad input) is still
 * reported as an ImportError naming the file, with the original error as `cause`.
 */
export function withImportErrors<T>(file: string, body: () => T): T {
  try {
    return body();
  } catch (e) {
    if (e instanceof ImportError) throw e;
    const err = new ImportError({ file, path: 'internal' }, 'input the importer can read', e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    (err as { cause?: unknown }).cause = e;
    throw err;
  }
}
