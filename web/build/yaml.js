// YAML text to data, with parse errors turned into ContentErrors that give the file and the line.
import { YAMLParseError, parse } from 'yaml';
import { ContentError } from './content-error.js';

/**
 * Parses one YAML document (YAML 1.2 core schema; duplicate keys are an error).
 * @param {string} text
 * @param {string} file the file it came from, for messages
 * @param {{ field?: string, firstLine?: number }} [where] field: the part of the file ('' for the
 *   whole file); firstLine: the file line the text starts on (front matter starts on line 2)
 * @returns {unknown}
 */
export function parseYaml(text, file, { field = '', firstLine = 1 } = {}) {
  try {
    return parse(text);
  } catch (err) {
    if (!(err instanceof YAMLParseError)) throw err;
    const summary = err.message.split('\n')[0].replace(/ at line \d+, column \d+:$/, '');
    const at = err.linePos ? ` at line ${err.linePos[0].line + firstLine - 1}` : '';
    throw new ContentError(file, field, `is not valid YAML${at}: ${summary}`);
  }
}
