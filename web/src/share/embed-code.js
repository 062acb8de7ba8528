// Embedding one figure in another site (a course page, a blog): the address of embed.html showing
// the figure with the given settings, the <iframe> snippet the Figure menu copies, and the message
// an embedded figure sends its parent when its height changes, so the frame can grow to fit.
// The settings travel exactly as in a figure link (figure-link.js): one format, one parser.
import { EMBED_URL, lessonHref } from '../links.js';
import { FIGURE_PARAM, urlWithSettings } from './figure-link.js';

/** The `type` of the message an embedded figure posts to its parent: { type, height, figure }. */
export const HEIGHT_MESSAGE = 'attention-lab:height';

/**
 * What the embedding page adds around a figure: the line naming its model, the caption line and
 * their margins, in px.
 */
export const EMBED_EXTRA_PX = 88;

/** The snippet's height is rounded up to a multiple of this, in px. */
const HEIGHT_STEP = 10;

/** Whether this build has an embeddable page at all (the single-file lesson has none). */
export const canEmbed = EMBED_URL !== '';

/**
 * The absolute address of the embed page showing slide `slideId`'s figure with `settings`.
 * @param {string | URL} base what the page's relative links resolve against (document.baseURI)
 * @param {string} slideId
 * @param {Record<string, unknown>} settings
 * @param {string} [view] the view shown, when it is not the figure's first
 * @param {string | null} [lesson] the lesson's key (none: the first lesson)
 * @returns {string}
 */
export function embedHref(base, slideId, settings, view, lesson) {
  const page = new URL(lessonHref(EMBED_URL, lesson), base);
  page.hash = '';
  const url = new URL(urlWithSettings(page, slideId, settings, view));
  // A link with nothing to set names no figure; an embed always names its figure.
  if (!url.searchParams.has(FIGURE_PARAM)) url.searchParams.set(FIGURE_PARAM, slideId);
  return url.href;
}

/**
 * A height for the frame: at least one step, rounded up to the next step.
 * @param {number} px
 * @returns {number}
 */
export function frameHeight(px) {
  const height = Number.isFinite(px) && px > 0 ? px : 0;
  return Math.max(HEIGHT_STEP, Math.ceil(height / HEIGHT_STEP) * HEIGHT_STEP);
}

/**
 * Text made safe inside a double-quoted HTML attribute.
 * @param {string} text
 * @returns {string}
 */
export function attributeText(text) {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/**
 * The <iframe> a teacher pastes into their page.
 * @param {{ src: string, title: string, height: number }} frame `title` is the figure's; the
 *   lesson's name is added; `height` in px, rounded up (frameHeight)
 * @returns {string}
 */
export function embedSnippet({ src, title, height }) {
  const attrs = [
    ['src', src],
    ['title', `${title} \u00b7 Attention Lab`],
    ['width', '100%'],
    ['height', String(frameHeight(height))],
    ['style', 'border:0'],
    ['loading', 'lazy'],
  ];
  const list = attrs.map(([name, value]) => ` ${name}="${attributeText(value)}"`).join('');
  return `<iframe${list}></iframe>`;
}
