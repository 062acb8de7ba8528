// Markdown to HTML for the lesson content, with KaTeX math. Raw HTML is escaped, never rendered.
// Math is tokenised before any other inline rule sees it, so `_`, `*` or `\` inside it stay TeX:
// `$...$` is inline math, `$$...$$` display math (a block of its own, or inside a line). Every
// unescaped `$` opens math; write `\$` for a dollar sign. Bad TeX throws (throwOnError), so a
// broken formula fails the build instead of reaching the page as red text.
import katex from 'katex';
import MarkdownIt from 'markdown-it';

const DOLLAR = 0x24;
const BACKSLASH = 0x5c;

/**
 * TeX to KaTeX markup: visual HTML plus MathML for screen readers.
 * @param {string} tex
 * @param {boolean} displayMode
 * @returns {string}
 */
function renderTex(tex, displayMode) {
  const delim = displayMode ? '$$' : '$';
  try {
    return katex.renderToString(tex, {
      displayMode,
      output: 'htmlAndMathml',
      throwOnError: true,
      strict: 'error',
    });
  } catch (err) {
    throw new Error(`has bad TeX in ${delim}${tex}${delim}: ${err.message}`, { cause: err });
  }
}

/**
 * Finds the closing delimiter, skipping TeX escapes such as `\$` and `\\`.
 * @param {string} src
 * @param {number} from index just after the opening delimiter
 * @param {number} end
 * @param {string} delim '$' or '$$'
 * @returns {number} index of the closing delimiter, or -1
 */
function findClose(src, from, end, delim) {
  for (let pos = from; pos < end; pos += 1) {
    const ch = src.charCodeAt(pos);
    if (ch === BACKSLASH) pos += 1;
    else if (ch === DOLLAR && src.startsWith(delim, pos)) return pos;
  }
  return -1;
}

/**
 * Inline rule: `$tex$` and `$$tex$$` inside a line.
 * @param {any} state markdown-it StateInline
 * @param {boolean} silent
 */
function mathInline(state, silent) {
  const { src, pos, posMax } = state;
  if (src.charCodeAt(pos) !== DOLLAR) return false;
  const delim = src.charCodeAt(pos + 1) === DOLLAR ? '$$' : '$';
  const start = pos + delim.length;
  const close = findClose(src, start, posMax, delim);
  if (close < 0) {
    const near = src.slice(pos, pos + 40).replace(/\s+/g, ' ');
    throw new Error(`has an unmatched ${delim} (write \\$ for a dollar sign) at "${near}"`);
  }
  const tex = src.slice(start, close);
  if (tex.trim() === '') throw new Error(`has empty math ${delim}${tex}${delim}`);
  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.markup = delim;
    token.content = tex;
  }
  state.pos = close + delim.length;
  return true;
}

/**
 * Block rule: a paragraph that starts with `$$` and ends with `$$`, on one line or several.
 * @param {any} state markdown-it StateBlock
 * @param {number} startLine
 * @param {number} endLine
 * @param {boolean} silent
 */
function mathBlock(state, startLine, endLine, silent) {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const lineText = (line) =>
    state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]).trimEnd();
  const first = lineText(startLine);
  if (!first.startsWith('$$')) return false;

  let last = startLine;
  const oneLine = first.length >= 4 && first.endsWith('$$');
  if (oneLine && first.slice(2, -2).includes('$$')) return false; // `$$a$$ b $$c$$`: inline
  if (!oneLine) {
    last = startLine + 1;
    while (last < endLine && !lineText(last).endsWith('$$')) last += 1;
    if (last >= endLine) return false; // unclosed: the inline rule reports it
  }
  if (silent) return true;

  const lines = [];
  for (let line = startLine; line <= last; line += 1) lines.push(lineText(line));
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.markup = '$$';
  token.content = lines.join('\n').slice(2, -2).trim();
  token.map = [startLine, last + 1];
  state.line = last + 1;
  return true;
}

/**
 * markdown-it plugin: the two math rules and their renderers.
 * @param {import('markdown-it').MarkdownIt} parser
 */
function mathPlugin(parser) {
  parser.inline.ruler.before('escape', 'math_inline', mathInline);
  parser.block.ruler.before('fence', 'math_block', mathBlock, {
    alt: ['paragraph', 'reference', 'blockquote', 'list'],
  });
  parser.renderer.rules.math_inline = (tokens, idx) =>
    renderTex(tokens[idx].content, tokens[idx].markup === '$$');
  parser.renderer.rules.math_block = (tokens, idx) => `${renderTex(tokens[idx].content, true)}\n`;
}

/** @type {import('markdown-it').MarkdownIt} */
const md = new MarkdownIt({ html: false, linkify: false, typographer: false }).use(mathPlugin);

/**
 * Renders Markdown with math as block HTML (paragraphs, lists, headings, display math).
 * @param {string} source
 * @returns {string} HTML; '' for blank source
 * @throws {Error} on bad TeX or an unmatched `$`; the caller adds the file and field
 */
export function renderMarkdown(source) {
  return source.trim() === '' ? '' : md.render(source);
}

/**
 * Renders one line of Markdown with math, without a wrapping paragraph: for quiz prompts and
 * choices, which sit inside a legend or a label.
 * @param {string} source
 * @returns {string}
 * @throws {Error} on bad TeX or an unmatched `$`; the caller adds the file and field
 */
export function renderMarkdownInline(source) {
  return md.renderInline(source.trim());
}
