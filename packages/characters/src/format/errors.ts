/**
 * Error of the JSON character format: `path` names the offending value the way a reader would
 * write it in code (`links[3].joint.axis`), the message says what was expected there.
 */
export class FormatError extends Error {
  constructor(public readonly path: string, public readonly expected: string) {
    super(`${path}: ${expected}`);
    this.name = 'FormatError';
  }
}
