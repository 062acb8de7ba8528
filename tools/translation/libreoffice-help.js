// Parallel paragraphs from the LibreOffice help (Debian packages libreoffice-help-en-us and
// libreoffice-help-de). The packages hold the help as HTML pages rendered from the .xhp sources,
// one tree per language (/usr/share/libreoffice/help/<lang>/text/...) with the same file paths,
// and every paragraph, heading and list item keeps the id it has in the source in both languages
// (`<p id="par_id3145669" ...>`). So a page's English and German paragraph with the same id are a
// translation pair. Which markup is kept and which paragraphs are dropped, and why:
// docs/translation-corpus.md, "LibreOffice help".

// An element the source gave an id: a paragraph or a heading (h1-h6, and the odd bare <h>). The
// rendered pages never nest one in another, so the first closing tag of its name ends it.
const BLOCK = /<(p|h[1-6]?)(\s[^>]*)?>([\s\S]*?)<\/\1\s*>/g;
const ID = /\sid="([^"]*)"/;
// A tag or a run of text between tags.
const PIECE = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|<!--[\s\S]*?-->|([^<]+)/g;
// Elements that never have a closing tag.
const VOID = new Set(['img', 'br', 'hr', 'input', 'wbr']);
// Elements whose text does not read as plain text: super- and subscripts (formulas:
// "x<sup>2</sup>"), and what holds no prose at all.
const UNREADABLE = new Set(['sup', 'sub', 'svg', 'math', 'table', 'object', 'video']);
// Pictures, which the text names in words anyway ("Click the Run icon <img> to ...").
const PICTURES = new Set(['img']);
const ENTITIES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', '\u00a0'],
]);
// The product's name, where a page still has it as a variable.
const PRODUCT_NAME = /\$\[officename\]|%PRODUCTNAME/g;
// Left-overs that mean the text is not plain prose: markup, a variable the renderer left alone.
const NOT_PROSE = /[<>]|\$\[|%[A-Z]{4,}/;

/**
 * @typedef {object} Element
 * @property {string} name lower-case tag name
 * @property {string} attributes the tag's attribute text, as written
 * @property {Array<Element | string>} children elements and decoded text
 */

/**
 * The paragraphs of a help page that have an id, in page order, each its plain text or null when
 * it has none that can be used (see helpText). The page's footer (the renderer's debug notes)
 * is left out. An id that a page holds more than once (a section embedded from another page
 * twice) is told apart by its occurrence: the key of the n-th is `id#n`, counting from 0.
 * @param {string} html a whole page
 * @returns {Array<{ key: string, text: string | null }>}
 */
export function helpParagraphs(html) {
  const footer = html.indexOf('<footer');
  const body = footer < 0 ? html : html.slice(0, footer);
  /** @type {Map<string, number>} */
  const seen = new Map();
  const paragraphs = [];
  for (const match of body.matchAll(BLOCK)) {
    const id = ID.exec(match[2] ?? '')?.[1];
    if (!id) continue;
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    paragraphs.push({ key: `${id}#${n}`, text: helpText(match[3]) });
  }
  return paragraphs;
}

/**
 * The English and German texts of one page's paragraphs with the same key, in the English page's
 * order. A paragraph either language has no usable text for is skipped.
 * @param {string} englishHtml
 * @param {string} germanHtml the same page in German
 * @returns {Array<{ key: string, english: string, german: string }>}
 */
export function pairHelpPages(englishHtml, germanHtml) {
  const german = new Map(helpParagraphs(germanHtml).map(({ key, text }) => [key, text]));
  const pairs = [];
  for (const { key, text } of helpParagraphs(englishHtml)) {
    const translated = german.get(key);
    if (text && translated) pairs.push({ key, english: text, german: translated });
  }
  return pairs;
}

/**
 * A paragraph's inner HTML as plain text, or null when it has no text a reader would see the same
 * way on every system. Inline markup (emphasis, links, menu items, key names, literal text,
 * `<span class="avis">` extended tips) gives its text; a line break is a space; a picture gives
 * nothing; of the cases of a switch (`<span class="switchinline">`, text that differs by
 * operating system or module) the default case is kept, and a switch without one gives nothing.
 * A super- or subscript or a hidden element outside a switch makes the paragraph unusable. Entities are decoded, the product
 * name variable becomes "LibreOffice", and white space collapses to single spaces. Text still
 * holding `<`, `>` or a variable is unusable.
 * @param {string} inner
 * @returns {string | null}
 */
export function helpText(inner) {
  const tree = parseFragment(inner);
  if (tree === null) return null;
  const text = render(tree);
  if (text === null) return null;
  const clean = text.replace(PRODUCT_NAME, 'LibreOffice').replace(/\s+/g, ' ').trim();
  if (clean === '' || NOT_PROSE.test(clean)) return null;
  return clean;
}

/**
 * A fragment of HTML as a tree, or null when its tags do not nest or an entity is not known.
 * @param {string} html
 * @returns {Element | null}
 */
export function parseFragment(html) {
  /** @type {Element} */
  const root = { name: '', attributes: '', children: [] };
  const open = [root];
  for (const match of html.matchAll(PIECE)) {
    const [, closing, tagName, attributes, text] = match;
    const top = open[open.length - 1];
    if (text !== undefined) {
      const decoded = decodeEntities(text);
      if (decoded === null) return null;
      top.children.push(decoded);
    } else if (tagName === undefined) {
      continue; // a comment
    } else if (closing) {
      if (top.name !== tagName.toLowerCase() || open.length === 1) return null;
      open.pop();
    } else {
      /** @type {Element} */
      const element = { name: tagName.toLowerCase(), attributes: attributes ?? '', children: [] };
      top.children.push(element);
      if (!VOID.has(element.name) && !attributes?.trimEnd().endsWith('/')) open.push(element);
    }
  }
  return open.length === 1 ? root : null;
}

/**
 * @param {string} text
 * @returns {string | null}
 */
function decodeEntities(text) {
  let unknown = false;
  const decoded = text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (_, name) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : +name.slice(1);
      if (code > 0 && code <= 0x10ffff) return String.fromCodePoint(code);
      unknown = true;
      return '';
    }
    const character = ENTITIES.get(name.toLowerCase());
    if (character === undefined) unknown = true;
    return character ?? '';
  });
  return unknown ? null : decoded;
}

/**
 * @param {Element} element
 * @returns {string | null} null when the element makes its paragraph unusable
 */
function render(element) {
  if (UNREADABLE.has(element.name)) return null;
  if (PICTURES.has(element.name)) return '';
  if (element.name === 'br') return ' ';
  if (/\sclass="switchinline"/.test(element.attributes)) {
    const fallback = element.children.find(
      (child) => typeof child !== 'string' && /\sid="default/.test(child.attributes),
    );
    // Without a default case a reader on a system or module the switch does not name sees nothing.
    return fallback && typeof fallback !== 'string' ? renderChildren(fallback) : '';
  }
  if (/\shidden[\s=]|\shidden$/.test(element.attributes)) return null;
  return renderChildren(element);
}

/**
 * @param {Element} element
 * @returns {string | null}
 */
function renderChildren(element) {
  let text = '';
  for (const child of element.children) {
    const part = typeof child === 'string' ? child : render(child);
    if (part === null) return null;
    text += part;
  }
  return text;
}
