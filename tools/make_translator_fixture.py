"""Golden fixture for the core's two translation models, computed with PyTorch as an independent
reference: tests/fixtures/translator.json, read by tests/cpp/unit-translator-reference.cpp.

Two small random models of the architecture of attn::Translator (src/include/attn/translator.hpp,
docs/translation.md), one for each bridge, built from PyTorch's own modules:

  e_j = [X ; unknown][x_j]                      frozen word vectors and a learned unknown row
  h_j = [f_j ; b_j]                             nn.GRU(bidirectional=True) over packed sequences
  s_0 = tanh([f_n ; b_1] W_init + b_init)       nn.Linear; f_n and b_1 are the GRU's h_n
  attention:    e_tj = v . tanh(s_{t-1} W_a + h_j U_a + b_a)    nn.Linear x 3, torch.tanh, with
                alpha_t = softmax_j(e_t), c_t = sum_j alpha_tj h_j   padding masked to -inf
  fixed vector: c_t = [f_n ; b_1]
  s_t = GRU_d(s_{t-1}, [D y_{t-1} ; c_t])       nn.GRUCell, D an nn.Embedding
  logits_t = tanh([s_t ; c_t ; D y_{t-1}] W_o + b_o) D^T + b_out    nn.Linear, F.linear tied to D

with teacher forcing (y_0 = <s>, labels the German ids then </s>) and the mean of F.cross_entropy
over every label of the batch. It writes the configuration, the frozen word vectors, a batch of
three pairs of different lengths (one with the unknown English word, one with the unknown German
id 3) and, per model: every parameter, then per pair the encoder states, s_0 and per decoder step
the attention weights (attention model), c_t, s_t, the output layer's tanh o_t, the logits and
dL/dlogits (autograd), the batch's loss, and greedy translations of one sentence with the rules
of Translator::translate (never ids 0 or 1, ties to the first maximum, at most max_words words
and then a forced </s>; log-probabilities normalised over the ids it may write).

Encoding: as tools/make_lm_fixture.py. Every matrix is a flat, row-major list in the project's
row-vector convention (w_x is weight_ih.T with the gates r, z, n in PyTorch's order, w_h is
weight_hh.T, init_w is init.weight.T, ...), named as attn::Translator::parameters() names them,
in that order. Inputs (word vectors, parameters) are rounded to 8 significant digits before the
reference is computed; outputs are written in full (the shortest decimal that reads back as the
same float64), so that the double model can be held to rounding error. Everything is float64 and
seeded, so a rerun with the same PyTorch build writes the same file. Rerun from the repository
root with Debian's Python, which has PyTorch:

    /usr/bin/python3 tools/make_translator_fixture.py
"""

import torch
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from fixture_common import DIGITS, rounded, shape_of, write_fixture

SCALE = 0.5  # every parameter ~ N(0, SCALE^2), biases and the unknown row included

PADDING, START, END, UNKNOWN = 0, 1, 2, 3  # attn::kTarget*
IGNORED = -100  # F.cross_entropy's ignore_index for the padded labels

CONFIG = {
    "sourceWords": 7,  # id 7 is the unknown English word
    "sourceWidth": 4,
    "targetWords": 9,  # ids 0..3 special, 4..8 words
    "targetWidth": 3,
    "encoderState": 3,
    "decoderState": 4,
    "attention": 3,
}

# Three pairs of different lengths: an unknown English word (7) in the first, the unknown German
# id (3) in the second.
PAIRS = [
    {"source": [0, 3, 7, 5, 1], "target": [4, 8, 6]},
    {"source": [6, 2], "target": [5, 3, 7, 4]},
    {"source": [4, 1, 2], "target": [8]},
]

# Greedy translations of one sentence (with the unknown word), up to two word limits. With these
# weights the attention model ends at </s> after three words (and is cut at two), the fixed-vector
# model runs to either limit, and at some steps <pad> or <s> has the largest logit of all, which
# the rules pass over.
TRANSLATE = {"source": [3, 7, 6, 1, 0, 2], "maxWords": [12, 2]}

# The float model must write the same words: each choice's best logit must lead by this much.
MARGIN = 1e-3


def flat(t):
    """An output tensor as a flat, row-major list, in full precision."""
    return [float(x) for x in t.detach().reshape(-1).tolist()]


class Translator(torch.nn.Module):
    def __init__(self, c, bridge, word_vectors):
        super().__init__()
        d_x, d_y = c["sourceWidth"], c["targetWidth"]
        h_e, h_d, d_a = c["encoderState"], c["decoderState"], c["attention"]
        self.attend = bridge == "attention"
        self.register_buffer("X", word_vectors)  # frozen: a buffer, not a parameter
        self.unknown = torch.nn.Parameter(torch.zeros(1, d_x))
        self.encoder = torch.nn.GRU(d_x, h_e, batch_first=True, bidirectional=True)
        self.init = torch.nn.Linear(2 * h_e, h_d)
        self.embedding = torch.nn.Embedding(c["targetWords"], d_y)
        self.decoder = torch.nn.GRUCell(d_y + 2 * h_e, h_d)
        self.output = torch.nn.Linear(h_d + 2 * h_e + d_y, d_y)
        self.logit_b = torch.nn.Parameter(torch.zeros(c["targetWords"]))
        if self.attend:
            self.query = torch.nn.Linear(h_d, d_a, bias=False)
            self.key = torch.nn.Linear(2 * h_e, d_a)
            self.score = torch.nn.Linear(d_a, 1, bias=False)

    def encode(self, sources):
        """-> h: (B, n_max, 2 H_e) zero at padding, padding mask (B, n_max), [f_n ; b_1]."""
        table = torch.cat([self.X, self.unknown])  # id sourceWords: the unknown row
        lengths = [len(s) for s in sources]
        x = torch.zeros(len(sources), max(lengths), self.X.shape[1])
        for b, s in enumerate(sources):
            x[b, : len(s)] = table[torch.tensor(s)]
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        out, last = self.encoder(packed)
        h, _ = pad_packed_sequence(out, batch_first=True)
        summary = torch.cat([last[0], last[1]], dim=1)  # forward after x_n, backward after x_1
        h_e = last.shape[2]
        for b, n in enumerate(lengths):
            assert torch.equal(h[b, n - 1, :h_e], summary[b, :h_e])
            assert torch.equal(h[b, 0, h_e:], summary[b, h_e:])
        padded = torch.arange(max(lengths)).unsqueeze(0) >= torch.tensor(lengths).unsqueeze(1)
        return h, padded, summary

    def context(self, s, h, padded, summary):
        """s_{t-1}: (B, H_d) -> c_t: (B, 2 H_e) and alpha_t: (B, n_max), or None."""
        if not self.attend:
            return summary, None
        hidden = torch.tanh(self.query(s).unsqueeze(1) + self.key(h))  # (B, n_max, d_a)
        scores = self.score(hidden).squeeze(2).masked_fill(padded, float("-inf"))
        alpha = torch.softmax(scores, dim=1)
        assert torch.all(alpha[padded] == 0)
        return torch.bmm(alpha.unsqueeze(1), h).squeeze(1), alpha

    def step(self, previous, s, h, padded, summary):
        """One decoder step from the ids y_{t-1}: (B) -> c_t, alpha_t, s_t, o_t, logits_t."""
        c, alpha = self.context(s, h, padded, summary)
        y = self.embedding(previous)
        s = self.decoder(torch.cat([y, c], dim=1), s)
        o = torch.tanh(self.output(torch.cat([s, c, y], dim=1)))
        logits = F.linear(o, self.embedding.weight, self.logit_b)
        return c, alpha, s, o, logits


def named_parameters(model):
    """(name, tensor in the row-vector convention), in the order of Translator::parameters()."""
    e, d = model.encoder, model.decoder
    rows = [("unknown", model.unknown)]
    for name, suffix in (("encoder_forward", "_l0"), ("encoder_backward", "_l0_reverse")):
        rows += [
            (f"{name}.w_x", getattr(e, "weight_ih" + suffix).T),
            (f"{name}.b_x", getattr(e, "bias_ih" + suffix)),
            (f"{name}.w_h", getattr(e, "weight_hh" + suffix).T),
            (f"{name}.b_h", getattr(e, "bias_hh" + suffix)),
        ]
    rows += [
        ("decoder.w_x", d.weight_ih.T),
        ("decoder.b_x", d.bias_ih),
        ("decoder.w_h", d.weight_hh.T),
        ("decoder.b_h", d.bias_hh),
        ("init_w", model.init.weight.T),
        ("init_b", model.init.bias),
        ("target_embedding", model.embedding.weight),
        ("output_w", model.output.weight.T),
        ("output_b", model.output.bias),
        ("logit_b", model.logit_b),
    ]
    if model.attend:
        rows += [
            ("query_w", model.query.weight.T),
            ("key_w", model.key.weight.T),
            ("key_b", model.key.bias),
            ("score_v", model.score.weight),  # (1, d_a) already
        ]
    assert len(rows) == len(list(model.parameters()))
    return rows


def teacher_forced(model, pairs):
    """Every pair's encoder states and decoder steps, the mean loss and dL/dlogits."""
    sources = [p["source"] for p in pairs]
    h, padded, summary = model.encode(sources)
    lengths = [len(p["target"]) + 1 for p in pairs]  # with </s>
    steps = max(lengths)
    inputs = torch.full((len(pairs), steps), PADDING)
    labels = torch.full((len(pairs), steps), IGNORED)
    for b, p in enumerate(pairs):
        inputs[b, : lengths[b]] = torch.tensor([START] + p["target"])
        labels[b, : lengths[b]] = torch.tensor(p["target"] + [END])
    s0 = torch.tanh(model.init(summary))
    s, record = s0, []
    for t in range(steps):
        c, alpha, s_next, o, logits = model.step(inputs[:, t], s, h, padded, summary)
        active = (t < torch.tensor(lengths)).unsqueeze(1)
        s = torch.where(active, s_next, s)  # a pair past its end keeps its state, unread
        logits.retain_grad()
        record.append((c, alpha, s_next, o, logits))
    all_logits = torch.stack([r[4] for r in record], dim=1)  # (B, T, V)
    loss = F.cross_entropy(
        all_logits.reshape(-1, all_logits.shape[2]), labels.reshape(-1), ignore_index=IGNORED
    )
    loss.backward()

    out = []
    for b, p in enumerate(pairs):
        n, m = len(p["source"]), lengths[b]

        def pick(i):
            """Item i of the record at the pair's steps, one row each."""
            return torch.stack([record[t][i][b] for t in range(m)])

        entry = {
            "source": p["source"],
            "target": p["target"],
            "encoderStates": flat(h[b, :n]),
            "initialState": flat(s0[b]),
        }
        if model.attend:
            entry["attention"] = flat(pick(1)[:, :n])
        entry.update(
            {
                "contexts": flat(pick(0)),
                "decoderStates": flat(pick(2)),
                "outputs": flat(pick(3)),
                "logits": flat(pick(4)),
                "dLogits": flat(torch.stack([record[t][4].grad[b] for t in range(m)])),  # autograd
            }
        )
        out.append(entry)
    return out, loss


def translate(model, source, max_words):
    """Greedy decoding with the rules of Translator::translate -> the translation, and at how many
    steps <pad> or <s> had the largest logit (which the rules pass over)."""
    h, padded, summary = model.encode([source])
    s = torch.tanh(model.init(summary))
    previous, words, rows, log_probability, passed_over = START, [], [], 0.0, 0
    for t in range(max_words + 1):
        _, alpha, s, _, logits = model.step(torch.tensor([previous]), s, h, padded, summary)
        passed_over += int(logits[0].argmax()) < END
        if alpha is not None:
            rows.append(alpha[0])
        writable = logits[0, END:]  # never padding or <s>
        best = END  # after max_words words the step can only end the sentence
        if t < max_words:
            top = writable.max()
            best = END + int((writable == top).nonzero()[0])  # the first of equal ones
            runner_up = torch.cat([writable[: best - END], writable[best - END + 1 :]]).max()
            assert top - runner_up > MARGIN, "a near tie: the float model might choose otherwise"
        log_probability += float(torch.log_softmax(writable, dim=0)[best - END])
        if best == END:
            break
        words.append(best)
        previous = best
    weights = torch.stack(rows) if rows else torch.zeros(len(words) + 1, 0)
    return {
        "source": source,
        "maxWords": max_words,
        "words": words,
        "weights": flat(weights),
        "logProbability": log_probability,
    }, passed_over


def main():
    generator = torch.Generator().manual_seed(2039)
    c = CONFIG
    word_vectors = rounded(torch.randn(c["sourceWords"], c["sourceWidth"], generator=generator))
    models = {}
    for bridge in ("attention", "fixed-vector"):
        model = Translator(c, bridge, word_vectors)
        with torch.no_grad():
            for p in model.parameters():
                p.copy_(rounded(torch.randn(p.shape, generator=generator) * SCALE))
        model.zero_grad()
        pairs, loss = teacher_forced(model, PAIRS)
        parameters = {}
        for name, p in named_parameters(model):
            parameters[name] = {"shape": shape_of(p), "value": flat(p)}
        with torch.no_grad():
            done = [translate(model, TRANSLATE["source"], k) for k in TRANSLATE["maxWords"]]
        translations = [t for t, _ in done]
        models[bridge] = {
            "parameters": parameters,
            "pairs": pairs,
            "loss": float(loss),
            "translations": translations,
        }
        ends = ["</s>" if len(t["words"]) < t["maxWords"] else "the limit" for t in translations]
        print(
            f"{bridge}: loss {float(loss):.6f}; translations "
            + ", ".join(f"{t['words']} (to {e})" for t, e in zip(translations, ends))
            + f"; <pad> or <s> led at {sum(n for _, n in done)} steps"
        )

    document = {
        "about": (
            "The two translation models (attention and fixed vector) from torch modules "
            "(nn.GRU bidirectional over packed sequences, nn.GRUCell, additive attention from "
            "torch ops, output tied to the German embeddings): per pair the encoder states, s_0, "
            "and per decoder step the attention weights, context, state, output, logits and "
            "dL/dlogits; the mean cross-entropy; greedy translations."
        ),
        "generator": "tools/make_translator_fixture.py (PyTorch %s, float64)" % torch.__version__,
        "encoding": (
            "matrices are flat row-major lists in the row-vector convention (per pair, one row "
            "per decoder step); inputs rounded to %d significant digits, outputs in full" % DIGITS
        ),
        "config": c,
        "wordVectors": flat(word_vectors),
        "models": models,
    }
    write_fixture("translator.json", document)


if __name__ == "__main__":
    main()
