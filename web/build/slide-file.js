// One slide file split into its parts: YAML front matter between `---` lines, then the body, then
// the optional `<!-- notes -->` and `<!-- article -->` sections, in that order. Inside the article
// section, `<!-- deeper: Short title -->` and `<!-- /deeper -->` lines enclose an optional part,
// one the article shows closed, for a reader who wants more than its main line.
import { ContentError } from './content-error.js';
import { parseYaml } from './yaml.js';

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?\n)?---[ \t]*(?:\n|$)/;
/** A line that holds nothing but an HTML comment: a marker, or a mistyped one. */
const COMMENT_LINE = /^[ \t]*<!--[ \t]*(.*?)[ \t]*-->[ \t]*$/gm;
const ORDER = ['body', 'notes', 'article'];
const KNOWN = 'the markers are <!-- notes --> then <!-- article -->, each at most once';
/** What a comment line's text is when it opens (`deeper: Title`) or closes a deeper part. */
const DEEPER_OPEN = /^deeper(?::|$)/;
const DEEPER_CLOSE = '/deeper';
const DEEPER_FORM = 'an optional part is <!-- deeper: Short title --> ... <!-- /deeper -->';

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
    if (DEEPER_OPEN.test(name) || name === DEEPER_CLOSE) {
      if (current === 'article') continue;
      throw new ContentError(
        file,
        current,
        `has ${match[0].trim()} outside the article section; ${DEEPER_FORM}, after <!-- article -->`,
      );
    }
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
 *   matter as parsed (checked by the schema); the three Markdown sections ('' when absent), the
 *   article with its deeper markers in place (splitDeeper takes it apart)
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

/**
 * Splits a slide's article section into its main line and its deeper parts, in order.
 * @param {string} article the article section, as parseSlideFile returns it
 * @param {string} file the file, for messages
 * @returns {Array<{ title: string | null, markdown: string }>} title: null for a stretch of the
 *   main line, else the deeper part's title as written (Markdown); markdown: the text between
 *   the markers. Stretches of the main line that hold only white space are left out.
 * @throws {ContentError} on a deeper part that is unclosed, nested, empty or untitled, or on a
 *   closing marker with nothing open
 */
export function splitDeeper(article, file) {
  const parts = [];
  /** @type {{ title: string, marker: string } | null} */
  let open = null;
  let from = 0;
  const add = (title, markdown) => {
    if (title === null && markdown.trim() === '') return;
    parts.push({ title, markdown });
  };
  for (const match of article.matchAll(COMMENT_LINE)) {
    const name = match[1];
    const marker = match[0].trim();
    if (DEEPER_OPEN.test(name)) {
      if (open) {
        throw new ContentError(
          file,
          'article',
          `has ${marker} inside the deeper part "${open.title}"; close it with <!-- /deeper --> ` +
            'first: deeper parts do not nest',
        );
      }
      const title = name.replace(DEEPER_OPEN, '').trim();
      if (title === '') {
        throw new ContentError(file, 'article', `has ${marker} without a title; ${DEEPER_FORM}`);
      }
      add(null, article.slice(from, match.index));
      open = { title, marker };
    } else if (name === DEEPER_CLOSE) {
      if (!open) {
        throw new ContentError(
          file,
          'article',
          `has ${marker} with no deeper part open; ${DEEPER_FORM}`,
        );
      }
      const markdown = article.slice(from, match.index);
      if (markdown.trim() === '') {
        throw new ContentError(file, 'article', `has an empty deeper part "${open.title}"`);
      }
      add(open.title, markdown);
      open = null;
    } else {
      continue;
    }
    from = match.index + match[0].length;
  }
  if (open) {
    throw new ContentError(
      file,
      'article',
      `has ${open.marker} that is never closed; end the part with <!-- /deeper -->`,
    );
  }
  add(null, article.slice(from));
  return parts;
}
