// One slide file split into its parts: YAML front matter between `---` lines, then the body, then
// the optional `<!-- notes -->` and `<!-- article -->` sections, in that order.
import { ContentError } from './content-error.js';
import { parseYaml } from './yaml.js';

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?\n)?---[ \t]*(?:\n|$)/;
/** A line that holds nothing but an HTML comment: a marker, or a mistyped one. */
const COMMENT_LINE = /^[ \t]*<!--[ \t]*(.*?)[ \t]*-->[ \t]*$/gm;
const ORDER = ['body', 'notes', 'article'];
const KNOWN = 'the markers are <!-- notes --> then <!-- article -->, each at most once';

/**
 * Splits the Markdown after the front matter at the two markers.
 * @param {string} markdown
 * @param {string} file
 * @returns {{ body: string, notes: string, article: string }}
 */
function splitSections(markdown, file) {
  const parts = { body: '', notes: '', article: '' };
  let current = 'body';
  let from = 0;
  for (const match of markdown.matchAll(COMMENT_LINE)) {
    const name = match[1];
    if (name !== 'notes' && name !== 'article') {
      throw new ContentError(file, current, `has an unknown marker ${match[0].trim()}; ${KNOWN}`);
    }
    if (ORDER.indexOf(name) <= ORDER.indexOf(current)) {
      throw new ContentError(file, current, `has <!-- ${name} --> out of place; ${KNOWN}`);
    }
    parts[current] = markdown.slice(from, match.index);
    current = name;
    from = match.index + match[0].length;
  }
  parts[current] = markdown.slice(from);
  return parts;
}

/**
 * Reads a slide file's text.
 * @param {string} text the whole file
 * @param {string} file the file, for messages
 * @returns {{ meta: unknown, body: string, notes: string, article: string }} meta: the front
 *   matter as parsed (checked by the schema); the three Markdown sections ('' when absent)
 */
export function parseSlideFile(text, file) {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const match = FRONT_MATTER.exec(normalised);
  if (!match) {
    throw new ContentError(file, '', 'must start with front matter between two --- lines');
  }
  const meta = parseYaml(match[1] ?? '', file, { field: 'front matter', firstLine: 2 });
  return { meta, ...splitSections(normalised.slice(match[0].length), file) };
}
