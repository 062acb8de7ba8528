"""Reference corpus BLEU from NLTK, an independent check of tools/translation/bleu.js.

Writes tests/fixtures/corpus_bleu.json: small random corpora of token lists, each with NLTK's
corpus_bleu (uniform weights over orders 1..4, no smoothing, times 100), the clipped matches and
n-gram totals summed over the corpus from NLTK's modified_precision, and its brevity penalty.
The file has the shape {"about", "generator", "cases": [{"name", "input": {"pairs"},
"expected": {"bleu", "matches", "totals", "brevityPenalty"}}]}, a pair being
{"hypothesis", "reference"} as corpusBleu takes it.

NLTK differs from the definition of bleu.js in two corners, which the corpora stay out of:
  * it counts a hypothesis shorter than n as one n-gram (its denominator is max(1, count)), so
    every hypothesis here has at least 4 tokens;
  * without smoothing it puts the smallest float in place of a zero precision, so a score that
    bleu.js makes exactly 0 comes out near 1e-77 rather than 0; every corpus here has matches
    at every order (the script checks).

Hypotheses are references with random words replaced, dropped and inserted from a vocabulary of
ten, some corpora dropping more than they insert, so that the brevity penalty is below 1. The
corpora come from random.Random with fixed seeds, so a rerun writes the same file. Rerun from the
repository root with Debian's Python and python3-nltk:

    /usr/bin/python3 tools/make_bleu_fixture.py
"""

import json
import os
import random

import nltk
from nltk.translate.bleu_score import brevity_penalty, corpus_bleu, modified_precision

VOCABULARY = ["the", "a", "cat", "dog", "sees", "runs", "in", "house", "and", "small"]
OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "corpus_bleu.json")


def hypothesis_of(reference, rng, drop, insert, replace):
    """The reference with each word replaced, dropped or followed by an inserted word at random."""
    out = []
    for word in reference:
        roll = rng.random()
        if roll < drop:
            continue
        out.append(rng.choice(VOCABULARY) if roll < drop + replace else word)
        if rng.random() < insert:
            out.append(rng.choice(VOCABULARY))
    while len(out) < 4:
        out.append(rng.choice(VOCABULARY))
    return out


def make_case(name, seed, sentences, drop, insert, replace):
    rng = random.Random(seed)
    pairs = []
    for _ in range(sentences):
        reference = [rng.choice(VOCABULARY) for _ in range(rng.randint(4, 15))]
        hypothesis = hypothesis_of(reference, rng, drop, insert, replace)
        pairs.append({"hypothesis": hypothesis, "reference": reference})
    references = [[p["reference"]] for p in pairs]
    hypotheses = [p["hypothesis"] for p in pairs]
    matches = [0, 0, 0, 0]
    totals = [0, 0, 0, 0]
    for refs, hyp in zip(references, hypotheses):
        for n in range(1, 5):
            p = modified_precision(refs, hyp, n)
            matches[n - 1] += p.numerator
            totals[n - 1] += p.denominator
    assert all(m > 0 for m in matches), f"{name}: an order without matches"
    hyp_len = sum(len(h) for h in hypotheses)
    ref_len = sum(len(r[0]) for r in references)
    return {
        "name": name,
        "input": {"pairs": pairs},
        "expected": {
            "bleu": 100 * corpus_bleu(references, hypotheses),
            "matches": matches,
            "totals": totals,
            "brevityPenalty": brevity_penalty(ref_len, hyp_len),
        },
    }


def main():
    cases = [
        make_case("close translations, as long as the references", 1, 30, 0.05, 0.05, 0.1),
        make_case("loose translations, as long as the references", 2, 30, 0.15, 0.15, 0.3),
        make_case("short translations (brevity penalty below 1)", 3, 30, 0.25, 0.02, 0.1),
        make_case("long translations", 4, 30, 0.02, 0.3, 0.1),
        make_case("a corpus of three sentences", 5, 3, 0.1, 0.1, 0.2),
        make_case("a corpus of two hundred sentences", 6, 200, 0.1, 0.1, 0.25),
    ]
    fixture = {
        "about": "Corpus BLEU-4 (times 100, no smoothing) from nltk corpus_bleu.",
        "generator": f"tools/make_bleu_fixture.py (NLTK {nltk.__version__})",
        "cases": cases,
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(fixture, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
