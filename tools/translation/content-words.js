// Which German words of a reference carry its content: every word token (germanTokens) but the
// function words below, the closed classes German builds sentences from (articles, pronouns and
// possessives, prepositions and their contractions, conjunctions, the forms of the auxiliaries
// sein, haben, werden and the modal verbs, negation and a few particles). Content-word recall, the
// share of a reference's content words a translation writes, says whether a learner would
// recognise what the sentence is about ("katze", "sofa", "schläft"), which BLEU and chrF mix with
// word order and inflection.
import { germanTokens } from './german-tokens.js';

export const GERMAN_FUNCTION_WORDS = new Set(
  `der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner
  ich du er sie es wir ihr mich mir dich dir sich uns euch ihn ihm ihnen man
  mein meine meinen meinem meiner meines dein deine deinen deinem deiner sein seine seinen seinem
  seiner ihre ihren ihrem ihrer unser unsere unseren unserem unserer euer eure
  dies diese dieser dieses diesen diesem jede jeder jedes jeden jedem was wer wo wie
  in im ins an am ans auf aus bei beim mit nach von vom zu zum zur über unter vor hinter neben
  zwischen für durch gegen ohne um bis seit
  und oder aber denn weil dass wenn ob als
  bin bist ist sind seid war warst waren wart gewesen habe hast hat haben habt hatte hatten gehabt
  werde wirst wird werden werdet wurde wurden worden kann kannst können könnt konnte will willst
  wollen wollt wollte soll sollst sollen sollt sollte muss musst müssen müsst musste darf darfst
  dürfen mag möchte möchten hätte würde
  nicht auch noch schon so ja nein doch mal`.split(/\s+/u),
);

/**
 * The content words of German text, lower case, in order (repeats kept).
 * @param {string} text
 * @returns {string[]}
 */
export function contentWords(text) {
  return germanTokens(text).filter((t) => /\p{L}|\p{N}/u.test(t) && !GERMAN_FUNCTION_WORDS.has(t));
}

/**
 * How many of the reference's content words the translation writes, each as often as both have it.
 * @param {string} translation
 * @param {string} reference
 * @returns {{ found: number, total: number }}
 */
export function contentWordsFound(translation, reference) {
  /** @type {Map<string, number>} */
  const written = new Map();
  for (const word of germanTokens(translation)) written.set(word, (written.get(word) ?? 0) + 1);
  let found = 0;
  const wanted = contentWords(reference);
  for (const word of wanted) {
    const left = written.get(word) ?? 0;
    if (left > 0) {
      found++;
      written.set(word, left - 1);
    }
  }
  return { found, total: wanted.length };
}
