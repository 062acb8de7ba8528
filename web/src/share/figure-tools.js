// The "Figure" menu beside a live figure: save it as SVG or PNG, copy a link that opens the slide
// with the same settings, and copy the <iframe> code that embeds the figure as it is in another
// page (embed-code.js). It is a <details>, so it opens and closes with the keyboard, and it says
// what it did in a status line; when the clipboard refuses, the line shows the text to copy.
import { composeSvg, figureDrawings, offerDownload, svgToPng } from './export-figure.js';
import { el } from '../views/heatmap/dom.js';

const NOTHING = 'There is no figure to save yet.';

/**
 * Builds the menu for the figure inside `host`.
 * @param {Document} doc
 * @param {{ host: () => Element | null, saved: () => { name: string, title: string },
 *   link?: () => string, embed?: () => string }} figure
 *   `host` finds the element the widget draws into; `saved` names the figure as it is now (the
 *   view shown): `name` is the file name without extension, `title` is written at the top of the
 *   saved picture (figure-views.js savedAs); `link`, when given, offers "Copy link";
 *   `embed`, when given, offers "Copy embed code" (the snippet it returns)
 * @returns {HTMLDetailsElement}
 */
export function buildFigureTools(doc, figure) {
  const menu = /** @type {HTMLDetailsElement} */ (el(doc, 'details', { class: 'figure-tools' }));
  const summary = el(doc, 'summary', { 'aria-label': 'Figure: save or share' }, 'Figure');
  const list = el(doc, 'div', { class: 'figure-tools-list' });
  const status = el(doc, 'p', { class: 'figure-tools-status', role: 'status' });

  const say = (text) => {
    status.textContent = text;
  };
  const button = (text, action) => {
    const item = doc.createElement('button');
    item.type = 'button';
    item.textContent = text;
    item.addEventListener('click', () => {
      action().catch((error) =>
        say(error.message === NOTHING ? NOTHING : `That did not work: ${error.message}.`),
      );
    });
    list.append(item);
  };
  const compose = () => {
    const host = figure.host();
    const drawings = host ? figureDrawings(host) : [];
    if (drawings.length === 0) throw new Error(NOTHING);
    return composeSvg(drawings, figure.saved().title);
  };

  button('Save as SVG', async () => {
    const svg = compose();
    const { name } = figure.saved();
    offerDownload(doc, new Blob([svg.text], { type: 'image/svg+xml' }), `${name}.svg`);
    say(`Saved ${name}.svg.`);
  });
  button('Save as PNG', async () => {
    const png = await svgToPng(compose(), doc);
    const { name } = figure.saved();
    offerDownload(doc, png, `${name}.png`);
    say(`Saved ${name}.png.`);
  });
  /**
   * Copies `text`, or shows it to be copied by hand.
   * @param {string} text
   * @param {string} done what the status says once it is copied
   * @param {string} fallback what it says before the text when the clipboard refuses
   */
  const copy = async (text, done, fallback) => {
    // A frame of another site may not write to the clipboard (unless its parent allows it);
    // asking anyway only logs a policy violation.
    const policy = /** @type {any} */ (doc).featurePolicy;
    if (policy?.allowsFeature?.('clipboard-write') === false) {
      say(`${fallback} ${text}`);
      return;
    }
    try {
      await navigator.clipboard.writeText(text);
      say(done);
    } catch {
      say(`${fallback} ${text}`);
    }
  };
  if (figure.link) {
    const link = figure.link;
    button('Copy link', () =>
      copy(
        link(),
        'Link copied: it opens this slide with the figure as it is now.',
        'Copy this link:',
      ),
    );
  }
  if (figure.embed) {
    const embed = figure.embed;
    button('Copy embed code', () =>
      copy(
        embed(),
        'Embed code copied: paste it into a page to show this figure as it is now.',
        'Copy this code:',
      ),
    );
  }
  list.append(status);
  menu.append(summary, list);
  return menu;
}
