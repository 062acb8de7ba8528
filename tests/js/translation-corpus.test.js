// The English-German corpus of tools/translation/ on hand-made inputs, nothing downloaded: the Ding
// lines and their filters, the LibreOffice help's paragraphs paired by id with their markup
// stripped, the games' gettext catalogues, the German tokenizer, the split by English sentence, the binary file read back, and
// the FreeDict entries.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { policyVersions } from '../../tools/translation/debian-packages.js';
import {
  dingClean,
  dingEntry,
  dingPairs,
  dingSentence,
  emptyDingCounts,
} from '../../tools/translation/ding.js';
import {
  compareCodePoints,
  dictNumber,
  dictionaryLines,
  entryTranslations,
  indexEntries,
} from '../../tools/translation/freedict.js';
import { germanTokens } from '../../tools/translation/german-tokens.js';
import {
  cataloguePairs,
  emptyCatalogueCounts,
  readCatalogue,
  readsAsSentence,
} from '../../tools/translation/gettext.js';
import {
  helpParagraphs,
  helpText,
  pairHelpPages,
} from '../../tools/translation/libreoffice-help.js';
import {
  everydayEntries,
  helpSentenceLike,
  markCopies,
  tsvBytes,
} from '../../tools/translation/make-corpus.js';
import { groupByWord } from '../../tools/translation/sentencepiece.js';
import {
  PAIRS_HEADER_BYTES,
  PairsFormatError,
  encodePairs,
  readPairs,
} from '../../tools/translation/pairs-format.js';
import {
  germanVocabulary,
  makeGermanEncoder,
  splitOfEnglish,
  trainableLength,
  uniquePairs,
} from '../../tools/translation/pairs.js';

describe('Ding', () => {
  test('a line gives the aligned alternatives that are full sentences on both sides', () => {
    const line =
      'Besuch {m} | Besuche {pl} | Er hat Besuch. | Dieses Museum ist einen Besuch wert. :: ' +
      'visit | visits | He has visitors. | This museum is worth visiting.';
    assert.deepEqual(dingPairs(line), [
      { german: 'Er hat Besuch.', english: 'He has visitors.', entry: false },
      {
        german: 'Dieses Museum ist einen Besuch wert.',
        english: 'This museum is worth visiting.',
        entry: false,
      },
    ]);
  });

  test('with entries asked for, the word and phrase alternatives come too, marked', () => {
    const line =
      'Garten {m}; Hausgarten {m} [agr.] | Gärten {pl} | den Garten pflegen | etw. gießen | ' +
      'Zum Haus gehört ein großer Garten. :: garden; yard [Am.] | gardens | to take care of the ' +
      'garden | to water sth. | The house has a large garden.';
    const counts = emptyDingCounts();
    assert.deepEqual(dingPairs(line, counts, { entries: true }), [
      { german: 'Garten', english: 'garden', entry: true },
      { german: 'Gärten', english: 'gardens', entry: true },
      // Four German words, seven English: too long for an entry.
      {
        german: 'Zum Haus gehört ein großer Garten.',
        english: 'The house has a large garden.',
        entry: false,
      },
    ]);
    assert.equal(counts.entries, 2);
    assert.equal(counts.pairs, 1);
    assert.deepEqual(dingPairs(line).length, 1);
  });

  test('an entry is cleaned as a sentence is, and has 1 to 4 words, no end mark, no placeholder', () => {
    assert.equal(dingClean('Garten {m}; Hausgarten {m} [agr.]'), 'Garten');
    assert.equal(dingEntry('Katze {f} (Haustier)'), 'Katze');
    assert.equal(dingEntry('eine Katze im Sack kaufen'), null);
    assert.equal(dingEntry('Er schläft.'), null);
    assert.equal(dingEntry('to water sth.'), null);
    assert.equal(dingEntry('aus/auf'), null);
    assert.equal(dingEntry('{m}'), null);
  });

  test('comments, malformed lines and lines with unequal sides give nothing', () => {
    const counts = emptyDingCounts();
    assert.deepEqual(dingPairs('# Er hat Besuch. :: He has visitors.', counts), []);
    assert.deepEqual(dingPairs('Er hat Besuch. He has visitors.', counts), []);
    assert.deepEqual(dingPairs('Er hat Besuch. | Sie auch. :: He has visitors.', counts), []);
    assert.deepEqual(counts, {
      lines: 2,
      malformed: 1,
      unaligned: 1,
      alternatives: 0,
      pairs: 0,
      entries: 0,
    });
  });

  test('braced, bracketed and angled notes and parentheses are removed', () => {
    assert.equal(dingSentence('Das Kind {n} schläft [ugs.] <Kind>.'), 'Das Kind schläft.');
    assert.equal(
      dingSentence('Seit den 60ern ist er eine (tragende) Säule.'),
      'Seit den 60ern ist er eine Säule.',
    );
    assert.equal(
      dingSentence('What the heck (hell) does that mean? /WTHDTM/'),
      'What the heck does that mean?',
    );
  });

  test('of synonyms separated by a semicolon the first is kept', () => {
    assert.equal(
      dingSentence('Es liegt in der Natur der Sache.; Es liegt in der Natur der Dinge.'),
      'Es liegt in der Natur der Sache.',
    );
  });

  test('an alternative with a placeholder is dropped, and "so." at the end is not one', () => {
    assert.equal(dingSentence('Er hat etw. gegen mich.'), null);
    assert.equal(dingSentence('Sie hat jdm. geholfen.'), null);
    assert.equal(dingSentence('He asked sb. for help.'), null);
    assert.equal(dingSentence("Don't touch sb.'s things."), null);
    assert.equal(dingSentence('Ask so. else now.'), null);
    assert.equal(dingSentence('I don’t really think so.'), 'I don’t really think so.');
    assert.equal(dingPairs('Er hat etw. gegen mich. :: He has something against me.').length, 0);
  });

  test('a side that is too short, is not capitalized, does not end a sentence or holds a slash is dropped', () => {
    assert.equal(dingSentence('Keine Anzahlung (nötig).'), null);
    assert.equal(dingSentence('Bis bald!'), null);
    assert.equal(dingSentence('der Hund bellt laut.'), null);
    assert.equal(dingSentence('Der Hund bellt laut'), null);
    assert.equal(dingSentence('Die Pläne liegen öffentlich aus/auf.'), null);
    assert.equal(dingSentence('3 Tage sind vergangen.'), '3 Tage sind vergangen.');
    assert.deepEqual(dingPairs('Bis bald! :: See you soon!'), []);
  });
});

describe('LibreOffice help', () => {
  const page = (/** @type {string} */ lang, /** @type {string[]} */ body) =>
    `<html lang="${lang}"><body><div id="DisplayArea">\n${body.join('\n')}\n</div>` +
    `<footer><p id="bm_module" dir="auto">Title is: $[officename]</p></footer></body></html>`;
  const english = page('en-US', [
    '<h1 id="hd_id1" dir="auto">Load/Save options</h1>',
    '<p id="par_id2" class="paragraph" dir="auto"><a name="x"></a><span class="avis">In the <span class="emph">General</span> section, you can select defaults.</span></p>',
    '<p class="embedded">Choose <span class="emph">Tools</span>.</p>',
    '<p id="par_id3" dir="auto">Press <span id="sw1" class="switchinline"><span hidden="true" id="MACx_1" class="MAC"><span class="keycode">Command</span></span><span hidden="true" id="defaultx_1"><span class="keycode">Ctrl</span></span></span>+<span class="keycode">F4</span> &amp; wait.</p>',
    '<p id="par_id4" dir="auto">Click the <span class="emph">Run</span> icon <img src="run.svg" alt="Run Icon"> in the toolbar.<br>Done.</p>',
    '<p id="par_id5" dir="auto">Computes x<sup>2</sup>.</p>',
    '<p id="par_id6" dir="auto">Enter &lt;path&gt; here.</p>',
    '<p id="par_id7" dir="auto">Only English.</p>',
    '<p id="par_id2" dir="auto">Embedded again.</p>',
  ]);
  const german = page('de', [
    '<h1 id="hd_id1" dir="auto">Optionen Laden/Speichern</h1>',
    '<p id="par_id2" class="paragraph" dir="auto"><span class="avis">Im Bereich <span class="emph">Allgemein</span> wählen Sie Standards.</span></p>',
    '<p id="par_id3" dir="auto">Drücken Sie <span id="sw1" class="switchinline"><span hidden="true" id="MACx_1" class="MAC">Befehl</span><span hidden="true" id="defaultx_1">Strg</span></span>+F4 &amp; warten.</p>',
    '<p id="par_id4" dir="auto">Klicken Sie auf das Symbol <img src="run.svg"> <span class="emph">Ausführen</span>.<br>Fertig.</p>',
    '<p id="par_id5" dir="auto">Berechnet x<sup>2</sup>.</p>',
    '<p id="par_id6" dir="auto">Geben Sie &lt;Pfad&gt; ein.</p>',
    '<p id="par_id2" dir="auto">Wieder eingebettet.</p>',
  ]);

  test('paragraphs and headings with an id are paired by id, repeated ids by occurrence', () => {
    assert.deepEqual(pairHelpPages(english, german), [
      { key: 'hd_id1#0', english: 'Load/Save options', german: 'Optionen Laden/Speichern' },
      {
        key: 'par_id2#0',
        english: 'In the General section, you can select defaults.',
        german: 'Im Bereich Allgemein wählen Sie Standards.',
      },
      {
        key: 'par_id3#0',
        english: 'Press Ctrl+F4 & wait.',
        german: 'Drücken Sie Strg+F4 & warten.',
      },
      {
        key: 'par_id4#0',
        english: 'Click the Run icon in the toolbar. Done.',
        german: 'Klicken Sie auf das Symbol Ausführen. Fertig.',
      },
      { key: 'par_id2#1', english: 'Embedded again.', german: 'Wieder eingebettet.' },
    ]);
  });

  test('a formula, leftover angle brackets or a paragraph without id give nothing, and the footer is not read', () => {
    const keys = helpParagraphs(english).map(({ key, text }) => `${key}=${text}`);
    assert.ok(keys.includes('par_id5#0=null'));
    assert.ok(keys.includes('par_id6#0=null'));
    assert.ok(!keys.some((key) => key.startsWith('bm_module')));
    assert.ok(!keys.some((key) => key.includes('Choose')));
  });

  test('a switch without a default case gives nothing, and the product variable reads LibreOffice', () => {
    assert.equal(
      helpText(
        'the path <span id="s" class="switchinline"><span hidden="true" id="WINx" class="WIN">or a drive</span></span>.',
      ),
      'the path .',
    );
    assert.equal(
      helpText('Welcome to $[officename]&#160;Writer.'),
      'Welcome to LibreOffice Writer.',
    );
    assert.equal(helpText('Broken <span>nesting</p>'), null);
    assert.equal(helpText('An &unknown; entity'), null);
  });

  test('an English paragraph counts as a sentence or phrase when it ends like one or has 3 words', () => {
    assert.ok(helpSentenceLike('Saves.'));
    assert.ok(helpSentenceLike('Conditional Array Calculations'));
    assert.ok(!helpSentenceLike('Load/Save options'));
  });
});

describe('germanTokens', () => {
  test('lower-cases, keeps hyphenated words and numbers whole and splits off each mark', () => {
    assert.deepEqual(germanTokens('Öffnen Sie die E-Mail-Adresse „Info“ für 3,5 Mio. Euro!'), [
      ...['öffnen', 'sie', 'die', 'e-mail-adresse', '„', 'info', '“', 'für', '3,5', 'mio', '.'],
      ...['euro', '!'],
    ]);
    assert.deepEqual(germanTokens('Ein- und Ausgang – geht’s?'), [
      ...['ein', '-', 'und', 'ausgang', '–', "geht's", '?'],
    ]);
  });

  test('composes to NFC and drops white space of every kind', () => {
    assert.deepEqual(germanTokens('Mu\u0308ller\u00a0\tgru\u0308ßt…'), ['müller', 'grüßt', '…']);
    assert.deepEqual(germanTokens('  '), []);
  });
});

describe('pairs', () => {
  const pair = (/** @type {string} */ en, /** @type {string} */ de) => ({
    englishTokens: en.split(' '),
    germanTokens: de.split(' '),
  });

  test('the split of an English sentence is fixed by its tokens alone', () => {
    const tokens = ['the', 'cat', 'sat', '.'];
    assert.equal(splitOfEnglish(tokens), splitOfEnglish([...tokens]));
    const counts = { train: 0, validation: 0, test: 0 };
    for (let i = 0; i < 2000; i++) counts[splitOfEnglish(['sentence', String(i), '.'])]++;
    assert.ok(counts.test > 60 && counts.test < 140, `test ${counts.test}`);
    assert.ok(counts.validation > 60 && counts.validation < 140, `validation ${counts.validation}`);
  });

  test('pairs that share an English sentence land in the same split', () => {
    const pairs = [
      pair('he has visitors .', 'er hat besuch .'),
      pair('he has visitors .', 'er hat gäste .'),
    ];
    assert.equal(splitOfEnglish(pairs[0].englishTokens), splitOfEnglish(pairs[1].englishTokens));
  });

  test('a repeated pair is kept once, in first place, and lengths outside 2 ... 40 are dropped', () => {
    const pairs = [pair('a b', 'x y'), pair('c d', 'z w'), pair('a b', 'x y'), pair('a b', 'x z')];
    assert.deepEqual(uniquePairs(pairs), [pairs[0], pairs[1], pairs[3]]);
    assert.ok(trainableLength(pair('a b', 'x y')));
    assert.ok(!trainableLength(pair('a', 'x y')));
    assert.ok(!trainableLength({ englishTokens: Array(41).fill('a'), germanTokens: ['x', 'y'] }));
  });

  test('the German vocabulary puts the special ids first, then words by count and code point', () => {
    const vocabulary = germanVocabulary([pair('-', 'b a c a'), pair('-', 'ä b z')], 3);
    assert.deepEqual(vocabulary, ['<pad>', '<s>', '</s>', '<unk>', 'a', 'b', 'c']);
    assert.deepEqual(makeGermanEncoder(vocabulary)(['c', 'ä', 'a', '<s>']), [6, 3, 4, 3]);
  });

  test('a split writes one tab-separated line per pair, tabs in the texts made spaces', () => {
    const bytes = tsvBytes([
      {
        source: 1,
        english: 'Tab\there.',
        german: 'Tab hier.',
        englishTokens: ['tab', 'here', '.'],
        englishIds: [0, 1, 2],
        germanTokens: ['tab', 'hier', '.'],
      },
    ]);
    assert.equal(
      new TextDecoder().decode(bytes),
      'libreoffice\tTab here.\tTab hier.\ttab here .\ttab hier .\n',
    );
  });
});

describe('German pieces', () => {
  const pieces = [
    '<pad>',
    '<s>',
    '</s>',
    '<unk>',
    '\u2581die',
    '\u2581katze',
    '\u2581schläf',
    't',
    '\u2581',
  ];

  test('group at each piece that begins a word, and at <unk>, a word of its own', () => {
    assert.deepEqual(groupByWord([4, 5, 6, 7], pieces), [[4], [5], [6, 7]]);
    assert.deepEqual(groupByWord([4, 3, 7, 8, 7], pieces), [[4], [3, 7], [8, 7]]);
  });

  test('a German word that is an English word outside the vocabulary becomes <unk>', () => {
    const pair = {
      source: 0,
      english: 'the zqx sleeps',
      german: 'die zqx schläft',
      englishTokens: ['the', 'zqx', 'sleeps'],
      englishIds: [0, 99, 5],
      germanTokens: ['die', 'zqx', 'schläft'],
    };
    const encoder = { unknownId: 99 };
    // "zqx" as the pieces ▁ z q x would be: a lone mark, then pieces that continue the word.
    const withZqx = [...pieces, 'z', 'q', 'x'];
    const ids = [4, 8, 9, 10, 11, 6, 7];
    assert.deepEqual(markCopies(pair, ids, withZqx, /** @type {any} */ (encoder)), [4, 3, 6, 7]);
    // A known English word is never copied; nor is anything when the words do not line up.
    const known = { ...pair, englishIds: [0, 1, 5] };
    assert.deepEqual(markCopies(known, ids, withZqx, /** @type {any} */ (encoder)), ids);
    assert.deepEqual(markCopies(pair, [4, 6, 7], withZqx, /** @type {any} */ (encoder)), [4, 6, 7]);
  });

  test('everyday entries: one or two frequent English words, the first German for each', () => {
    const ranks = new Map([
      ['garden', 500],
      ['to', 3],
      ['run', 900],
      ['zebra', 15_000],
    ]);
    const encoder = {
      unknownId: 20_058,
      encode: (/** @type {string} */ text) => {
        const tokens = text.toLowerCase().split(' ');
        return { tokens, ids: tokens.map((t) => ranks.get(t) ?? 20_058) };
      },
    };
    const entries = everydayEntries(
      [
        { english: 'garden', german: 'Garten' },
        { english: 'garden', german: 'Gartenanlage' },
        { english: 'to run', german: 'laufen' },
        { english: 'zebra', german: 'Zebra' },
        { english: 'to run garden', german: 'x' },
      ],
      /** @type {any} */ (encoder),
    );
    assert.deepEqual(
      entries.map((e) => [e.english, e.germanTokens.join(' '), e.source]),
      [
        ['garden', 'garten', 2],
        ['to run', 'laufen', 2],
      ],
    );
    // Tighter limits: one English word, among the 600 most frequent.
    const fewer = everydayEntries(
      [
        { english: 'garden', german: 'Garten' },
        { english: 'to run', german: 'laufen' },
        { english: 'run', german: 'rennen' },
      ],
      /** @type {any} */ (encoder),
      { rank: 600, words: 1 },
    );
    assert.deepEqual(
      fewer.map((e) => e.english),
      ['garden'],
    );
  });
});

describe('pairs file', () => {
  const file = {
    split: /** @type {const} */ ('validation'),
    englishClasses: 20_059,
    englishUnknownId: 20_058,
    englishVocabularyHash: 0xeaba90f4,
    germanClasses: 8_004,
    germanVocabularyHash: 0x01020304,
    pairs: [
      { source: 0, english: [5, 20_058, 2], german: [3, 8_003] },
      { source: 1, english: [0, 1], german: [4, 5, 6, 7] },
    ],
  };

  test('what encodePairs writes, readPairs reads back', () => {
    const bytes = encodePairs(file);
    assert.equal(bytes.length, PAIRS_HEADER_BYTES + 2 * 6 + 2 * (5 + 6));
    const read = readPairs(bytes);
    assert.equal(read.version, 1);
    assert.equal(read.split, 'validation');
    assert.equal(read.englishVocabularyHash, 0xeaba90f4);
    assert.equal(read.germanClasses, 8_004);
    assert.deepEqual(
      read.pairs.map((pair) => ({ ...pair, english: [...pair.english], german: [...pair.german] })),
      file.pairs,
    );
  });

  test('the header and the first record lie where the format says, little-endian', () => {
    const view = new DataView(encodePairs(file).buffer);
    assert.equal(new TextDecoder().decode(new Uint8Array(view.buffer, 0, 8)), 'ATTNPAIR');
    const header = Array.from({ length: 10 }, (_, i) => view.getUint32(8 + 4 * i, true));
    assert.deepEqual(header, [1, 1, 2, 20_059, 20_058, 0xeaba90f4, 8_004, 0x01020304, 5, 6]);
    const record = Array.from({ length: 8 }, (_, i) => view.getUint16(48 + 2 * i, true));
    assert.deepEqual(record, [3, 2, 0, 5, 20_058, 2, 3, 8_003]);
  });

  test('a damaged file is refused with the reason', () => {
    const bytes = encodePairs(file);
    assert.throws(() => readPairs(bytes.subarray(0, bytes.length - 2)), /truncated/);
    assert.throws(() => readPairs(new Uint8Array([...bytes, 0, 0])), /extra bytes/);
    const magic = bytes.slice();
    magic[0] = 0x58;
    assert.throws(() => readPairs(magic), PairsFormatError);
    const id = bytes.slice();
    new DataView(id.buffer).setUint16(48 + 6 + 6, 8_004, true);
    assert.throws(() => readPairs(id), /German id 8004 is not below 8004/);
    assert.throws(
      () => encodePairs({ ...file, pairs: [{ source: 0, english: [1, 2], german: [1, 4] }] }),
      /padding or boundary/,
    );
    assert.throws(() => encodePairs({ ...file, pairs: [] }), /at least one pair/);
  });
});

describe('FreeDict', () => {
  test('reads numbers in dictd base 64', () => {
    assert.equal(dictNumber('A'), 0);
    assert.equal(dictNumber('x'), 49);
    assert.equal(dictNumber('BA'), 64);
    assert.equal(dictNumber('B8'), 124);
  });

  test('an entry gives its single-word translations, tags and notes removed, lower case', () => {
    const entry = [
      'Word /wˈɜːd/',
      'Wort <neut> [ling.], Vokabel <fem>, Ehrenwort geben <v>',
      ' [coll.] Bescheid <masc>',
      '         Note: Sprache',
      '      "a word"  - ein Wort',
      ' see: {words}',
      '',
    ].join('\n');
    assert.deepEqual(entryTranslations(entry), [
      ['word', 'wort'],
      ['word', 'vokabel'],
      ['word', 'bescheid'],
    ]);
    assert.deepEqual(entryTranslations('eel stock /ˈiːl stˈɒk/\nAalbestand <masc>\n'), []);
    assert.deepEqual(entryTranslations('A /ˈeɪ/\nA <neut>\n'), []);
  });

  test('the dictionary lists each pair once, sorted, from the entries the index names', () => {
    const entries = [
      '00-database-info\nabout\n',
      'dog /dˈɒɡ/\nHund <masc>\n',
      'cat /kˈat/\nKatze <fem>, Kater <masc>\n',
    ];
    const dict = new TextEncoder().encode(entries.join(''));
    const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    let offset = 0;
    const index = [];
    for (const [i, entry] of entries.entries()) {
      const length = new TextEncoder().encode(entry).length;
      const name = ['00databaseinfo', 'dog', 'cat'][i];
      index.push(`${name}\t${digits[offset >> 6] ?? ''}${digits[offset & 63]}\t${digits[length]}`);
      if (name === 'dog') index.push(index[index.length - 1].replace('dog', 'hound'));
      offset += length;
    }
    assert.equal(indexEntries(index.join('\n')).length, 2);
    assert.deepEqual(dictionaryLines(index.join('\n'), dict), [
      'cat\tkater',
      'cat\tkatze',
      'dog\thund',
    ]);
  });

  test('strings sort by code point, as their UTF-8 bytes do', () => {
    const strings = ['\u{1F600}', '\uFFFD', 'b', 'ab', '', 'é', '\uE000', 'z\u{10000}', 'z\uFFFF'];
    const byBytes = [...strings].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    assert.deepEqual([...strings].sort(compareCodePoints), byBytes);
  });
});

describe('Debian packages', () => {
  test('reads the versions of apt-cache policy, and none when apt knows no such package', () => {
    const policy = [
      'libreoffice-help-de:',
      '  Installed: (none)',
      '  Candidate: 4:7.4.7-1+deb12u14',
      '  Version table:',
      '     4:7.4.7-1+deb12u14 500',
      '        500 http://deb.debian.org/debian bookworm/main amd64 Packages',
      ' *** 4:7.4.7-1+deb12u13 100',
      '        100 /var/lib/dpkg/status',
      '',
    ].join('\n');
    assert.deepEqual(policyVersions(policy), ['4:7.4.7-1+deb12u14', '4:7.4.7-1+deb12u13']);
    assert.equal(policyVersions(''), null);
  });
});

/**
 * A compiled gettext catalogue of `messages` ([original, translation] pairs), in the layout the
 * `.mo` format gives: header, the two tables of (length, offset), then the strings, NUL-ended.
 * @param {Array<[string, string]>} messages
 * @param {boolean} [little] the byte order
 */
function catalogueBytes(messages, little = true) {
  const encoder = new TextEncoder();
  const strings = messages.flatMap(([original, translation]) => [
    encoder.encode(original),
    encoder.encode(translation),
  ]);
  const tables = 28;
  let offset = tables + 16 * messages.length;
  const size = offset + strings.reduce((sum, bytes) => sum + bytes.length + 1, 0);
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  for (const [at, value] of [
    [0, 0x950412de],
    [4, 0],
    [8, messages.length],
    [12, tables],
    [16, tables + 8 * messages.length],
  ])
    view.setUint32(at, value, little);
  strings.forEach((string, i) => {
    const table = tables + (i % 2) * 8 * messages.length + 8 * Math.floor(i / 2);
    view.setUint32(table, string.length, little);
    view.setUint32(table + 4, offset, little);
    bytes.set(string, offset);
    offset += string.length + 1;
  });
  return bytes;
}

describe('gettext catalogues', () => {
  const messages = /** @type {Array<[string, string]>} */ ([
    ['', 'Content-Type: text/plain; charset=UTF-8\n'],
    ['Where is the key?', 'Wo ist der Schlüssel?'],
    ['menu\u0004Open the door.', 'Öffne die Tür.'],
    ['%d apple\0%d apples', '%d Apfel\0%d Äpfel'],
    ['Untranslated line.', ''],
  ]);

  test('reads the translated messages in either byte order, without header or plurals', () => {
    const expected = [
      { id: 'Where is the key?', text: 'Wo ist der Schlüssel?' },
      { id: 'Open the door.', text: 'Öffne die Tür.' },
    ];
    assert.deepEqual(readCatalogue(catalogueBytes(messages)), expected);
    assert.deepEqual(readCatalogue(catalogueBytes(messages, false)), expected);
  });

  test('refuses what is not a catalogue, or points past its end', () => {
    assert.throws(() => readCatalogue(new Uint8Array(10)), /shorter than its header/);
    assert.throws(() => readCatalogue(new Uint8Array(40)), /bad magic/);
    const cut = catalogueBytes(messages).subarray(0, 60);
    assert.throws(() => readCatalogue(cut), /past (its )?end/);
  });

  test('keeps sentences in both languages, one pair a sentence where both sides agree', () => {
    const counts = emptyCatalogueCounts();
    assert.deepEqual(
      cataloguePairs(
        {
          id: 'I am hungry. Are you?\nLet us eat!',
          text: 'Ich habe Hunger. Du auch? Lass uns essen!',
        },
        counts,
      ),
      [
        { english: 'I am hungry.', german: 'Ich habe Hunger.' },
        { english: 'Let us eat!', german: 'Lass uns essen!' },
      ],
      'three sentences a side, the second too short to keep',
    );
    assert.deepEqual(
      cataloguePairs({ id: 'We rest here. Then we go.', text: 'Wir rasten hier und gehen dann.' }),
      [{ english: 'We rest here. Then we go.', german: 'Wir rasten hier und gehen dann.' }],
      'two sentences against one: the message stays whole',
    );
    assert.deepEqual(
      cataloguePairs({ id: 'The old gate is open.', text: 'Das alte Tor ist offen.' }, counts),
      [{ english: 'The old gate is open.', german: 'Das alte Tor ist offen.' }],
    );
    for (const id of ['You found %d coins.', 'Press <b>Enter</b> now.', 'Take {item} with you.'])
      assert.deepEqual(cataloguePairs({ id, text: 'Ein deutscher Satz hier.' }, counts), [], id);
    assert.deepEqual(counts, { messages: 5, notProse: 3, pairs: 3, split: 1 });
  });

  test('a sentence starts with a capital, a digit or a quote, ends with . ? or !, has 3 words', () => {
    assert.equal(readsAsSentence('"Run," she said.'), true);
    assert.equal(readsAsSentence('„Lauf“, sagte sie.'), true);
    assert.equal(readsAsSentence('12 men rode out!'), true);
    assert.equal(readsAsSentence('He said: “Go.”'), true);
    assert.equal(readsAsSentence('small letters first.'), false);
    assert.equal(readsAsSentence('Open the door'), false);
    assert.equal(readsAsSentence('Well done!'), false);
  });
});
