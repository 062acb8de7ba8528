// Records the figures that the page draws before its translators have loaded: for every slide
// whose translation figure opens on the alignment view, the attention model's view of the
// slide's sentence (web/src/widgets/translation/record.js), into
// web/src/widgets/translation/recorded.json. Run after the models change:
//   npm run record:translation
import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

import { loadLesson } from '../../web/build/content.js';
import { loadTranslator } from '../../web/src/engine/node.js';
import { recordAlignment } from '../../web/src/widgets/translation/record.js';

const ROOT = new URL('../../', import.meta.url);
export const RECORDED = fileURLToPath(new URL('web/src/widgets/translation/recorded.json', ROOT));

/**
 * The sentences of the slides whose translation figure opens on the alignment view.
 * @param {{ slides: Array<{ widget?: { type: string, props?: Record<string, unknown> } }> }} lesson
 * @returns {string[]}
 */
export function recordedSentences(lesson) {
  return lesson.slides
    .map((slide) => slide.widget)
    .filter((w) => w?.type === 'translation' && w.props?.view === 'alignment')
    .map((w) => String(w?.props?.sentence));
}

/** @returns {Promise<import('../../web/src/text/translation.js').Translators>} */
export async function loadBothTranslators() {
  const attention = await loadTranslator({ model: 'attention' });
  const fixedVector = await loadTranslator({ model: 'fixed-vector' });
  return { attention, fixedVector };
}

async function main() {
  const lesson = loadLesson(fileURLToPath(new URL('slides/attention', ROOT)));
  const models = await loadBothTranslators();
  const recordings = recordedSentences(lesson).map((s) => recordAlignment(models, s));
  const text = await prettier.format(JSON.stringify(recordings), {
    ...(await prettier.resolveConfig(RECORDED)),
    filepath: RECORDED,
  });
  writeFileSync(RECORDED, text);
  console.log(`recorded ${recordings.length} sentence(s) into ${RECORDED}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
