// The one error broken lesson content raises: its message names the file and the field, so the
// build output and the test failure point straight at the line to fix.

/** A problem in the lesson content, found while loading, checking or rendering it. */
export class ContentError extends Error {
  /**
   * @param {string} file the content file, as `slides/<name>` (relative to the project)
   * @param {string} field the field path, e.g. `widget.type` or `items[2].answer`; '' for the file
   * @param {string} problem what is wrong, e.g. `must be a string`
   */
  constructor(file, field, problem) {
    super(`${file}: ${field ? `${field} ` : ''}${problem}`);
    this.name = 'ContentError';
    this.file = file;
    this.field = field;
  }
}
