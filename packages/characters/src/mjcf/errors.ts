/** Error of the MJCF importer: names the file, line and column, and what was expected there. */
export class MJCFError extends Error {
  constructor(
    public readonly file: string,
    public readonly line: number,
    public readonly column: number,
    public readonly expected: string,
  ) {
    super(`${file}:${line}:${column}: ${expected}`);
    this.name = 'MJCFError';
  }
}

/** Where something is in the source: file, 1-based line and column. */
export interface SourcePos {
  file: string;
  line: number;
  column: number;
}

export function errorAt(pos: SourcePos, message: string): MJCFError {
  return new MJCFError(pos.file, pos.line, pos.column, message);
}
