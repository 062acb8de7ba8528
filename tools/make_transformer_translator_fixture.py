"""Golden fixtures for the core's whole Transformer translator (attn::TransformerTranslator),
computed with PyTorch's own modules as an independent reference:
tests/fixtures/transformer_translator.json (pre-layer-norm) and
tests/fixtures/transformer_translator_post_ln.json (post-layer-norm), read by
tests/cpp/unit-transformer-translator-reference.cpp.

The model, as src/include/attn/transformer_translator.hpp writes it, from torch modules:

  e = X[x] (frozen word vectors; the unknown id a learned row), a = src(e) + P   nn.Linear
  a = nn.TransformerEncoderLayer(a, src_key_padding_mask) for each encoder layer
  M = nn.LayerNorm(a)
  z = sqrt(d_model) D(y_{t-1}) + P                                              nn.Embedding
  z = nn.TransformerDecoderLayer(z, M, causal tgt_mask, memory_key_padding_mask) per layer
  h = nn.LayerNorm(z),  logits = F.linear(h, D.weight, b_out)                   tied to D
  loss = F.cross_entropy(logits, labels, ignore_index=-1, label_smoothing=s)

The layers are those of tools/make_transformer_fixture.py (norm_first=True, GELU in its tanh form,
dropout 0, layer_norm_eps 1e-5, batch_first=True), whose helpers this script reuses.

The post-layer-norm model (NormPlace::post) is the same with norm_first=False, its layers stacked
by PyTorch's own nn.TransformerEncoder and nn.TransformerDecoder with norm=None: no final layer
norm on either side (M = a, h = z), as the core's post-LN model. (nn.Transformer, the whole
model, would add a final norm to each stack whatever norm_first says; the 2017 model has none.)
It is drawn from a seed of its own, so the pre-layer-norm fixture is the same file as before. P is the
core's sinusoid (positional.hpp) rounded to float32, as the core computes it. A batch of two pairs
of different lengths: the shorter English sentence is padded (key padding in the encoder and in
every cross-attention), the shorter German one too, past its end, where its labels are ignored
(the causal mask keeps the padded rows out of the others). The English has an unknown word, the
German the unknown id. The fixture holds the weights by the core's names, the batch, and for
label smoothing 0 and 0.1 the loss and the gradient of every parameter (autograd).

Encoding: as tools/make_transformer_fixture.py. Everything is float64 and seeded, so a rerun
writes the same file. Rerun from the repository root:

    /usr/bin/python3 tools/make_transformer_translator_fixture.py
"""

import math
import struct

import torch
import torch.nn.functional as F

from fixture_common import DIGITS, flat, random_model, write_fixture
from fixture_common import gradients_of, norm_rows, parameter_values
from make_transformer_fixture import decoder_parameters, encoder_parameters, layer_options

CONFIG = {
    "sourceWords": 6,
    "sourceWidth": 3,
    "targetWords": 9,
    "dModel": 8,
    "heads": 2,
    "encoderLayers": 2,
    "decoderLayers": 2,
    "dMlp": 12,
}
# English ids (6 = the unknown word) and German ids (3 = <unk>), without <s> or </s>.
SOURCES = [[0, 4, 6, 2], [5, 1]]
TARGETS = [[4, 7, 3], [6]]
START, END, IGNORED = 1, 2, -1
SMOOTHINGS = [0.0, 0.1]


def float32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def positions(n, d):
    """positional.hpp's positional_encoding(n, d): angle in double, sin and cos to float32."""
    p = torch.zeros(n, d)
    for pos in range(n):
        for i in range(0, (d + 1) // 2):
            angle = pos / math.pow(10000.0, 2.0 * i / d)
            p[pos, 2 * i] = float32(math.sin(angle))
            if 2 * i + 1 < d:
                p[pos, 2 * i + 1] = float32(math.cos(angle))
    return p


class Model(torch.nn.Module):
    def __init__(self, c, word_vectors):
        super().__init__()
        d = c["dModel"]
        options = layer_options(c)
        self.d = d
        self.word_vectors = word_vectors  # frozen, not a parameter
        self.unknown = torch.nn.Parameter(torch.zeros(1, c["sourceWidth"]))
        self.source = torch.nn.Linear(c["sourceWidth"], d)
        self.encoder = torch.nn.ModuleList(
            torch.nn.TransformerEncoderLayer(d, c["heads"], **options)
            for _ in range(c["encoderLayers"])
        )
        self.encoder_norm = torch.nn.LayerNorm(d, eps=1e-5)
        self.embedding = torch.nn.Embedding(c["targetWords"], d)
        self.decoder = torch.nn.ModuleList(
            torch.nn.TransformerDecoderLayer(d, c["heads"], **options)
            for _ in range(c["decoderLayers"])
        )
        self.decoder_norm = torch.nn.LayerNorm(d, eps=1e-5)
        self.logit_b = torch.nn.Parameter(torch.zeros(c["targetWords"]))
        self.p = positions(128, d)

    def encode(self, a, padding):
        for layer in self.encoder:
            a = layer(a, src_key_padding_mask=padding)
        return self.encoder_norm(a)

    def decode(self, z, memory, causal, padding):
        for layer in self.decoder:
            z = layer(z, memory, tgt_mask=causal, memory_key_padding_mask=padding)
        return self.decoder_norm(z)

    def encoder_layers(self):
        return self.encoder

    def decoder_layers(self):
        return self.decoder

    def forward(self, sources, targets):
        b = len(sources)
        n = max(len(s) for s in sources)
        m = max(len(t) for t in targets) + 1
        # English: the word vectors (the unknown id its learned row), padded with zeros.
        table = torch.cat([self.word_vectors, self.unknown], 0)
        e = torch.zeros(b, n, self.word_vectors.shape[1])
        padding = torch.ones(b, n, dtype=torch.bool)
        for i, s in enumerate(sources):
            e[i, : len(s)] = table[torch.tensor(s)]
            padding[i, : len(s)] = False
        a = self.source(e) + self.p[:n]
        memory = self.encode(a, padding)
        # German: <s> then the ids, padded with <pad> (0); labels the ids then </s>, -1 after.
        inputs = torch.zeros(b, m, dtype=torch.long)
        labels = torch.full((b, m), IGNORED, dtype=torch.long)
        for i, t in enumerate(targets):
            inputs[i, : len(t) + 1] = torch.tensor([START] + t)
            labels[i, : len(t) + 1] = torch.tensor(t + [END])
        z = self.embedding(inputs) * math.sqrt(self.d) + self.p[:m]
        causal = torch.ones(m, m, dtype=torch.bool).triu(diagonal=1)
        h = self.decode(z, memory, causal, padding)
        logits = F.linear(h, self.embedding.weight, self.logit_b)
        return logits, labels


class PostModel(Model):
    """The post-layer-norm model: norm_first=False layers in PyTorch's own stacks, norm=None."""

    def __init__(self, c, word_vectors):
        torch.nn.Module.__init__(self)
        d = c["dModel"]
        options = dict(layer_options(c), norm_first=False)
        self.d = d
        self.word_vectors = word_vectors  # frozen, not a parameter
        self.unknown = torch.nn.Parameter(torch.zeros(1, c["sourceWidth"]))
        self.source = torch.nn.Linear(c["sourceWidth"], d)
        self.encoder = torch.nn.TransformerEncoder(
            torch.nn.TransformerEncoderLayer(d, c["heads"], **options),
            c["encoderLayers"],
            norm=None,
            enable_nested_tensor=False,
        )
        self.embedding = torch.nn.Embedding(c["targetWords"], d)
        self.decoder = torch.nn.TransformerDecoder(
            torch.nn.TransformerDecoderLayer(d, c["heads"], **options),
            c["decoderLayers"],
            norm=None,
        )
        self.logit_b = torch.nn.Parameter(torch.zeros(c["targetWords"]))
        self.p = positions(128, d)

    def encode(self, a, padding):
        return self.encoder(a, src_key_padding_mask=padding)

    def decode(self, z, memory, causal, padding):
        return self.decoder(z, memory, tgt_mask=causal, memory_key_padding_mask=padding)

    def encoder_layers(self):
        return self.encoder.layers

    def decoder_layers(self):
        return self.decoder.layers


def parameter_rows(model, c, final_norms):
    """attn::TransformerTranslator::parameters(), in its order, with the core's names."""
    d = c["dModel"]
    rows = [
        ("unknown", model.unknown, lambda t: t),
        ("source_w", model.source.weight, lambda t: t.T),
        ("source_b", model.source.bias, lambda t: t),
    ]
    for l, layer in enumerate(model.encoder_layers()):
        rows += encoder_parameters(layer, d, f"encoder{l}")
    if final_norms:
        rows += norm_rows("encoder_norm", model.encoder_norm)
    rows.append(("target_embedding", model.embedding.weight, lambda t: t))
    for l, layer in enumerate(model.decoder_layers()):
        rows += decoder_parameters(layer, d, f"decoder{l}")
    if final_norms:
        rows += norm_rows("decoder_norm", model.decoder_norm)
    rows.append(("logit_b", model.logit_b, lambda t: t))
    return rows


# (file, model, seed, norm place, its blocks as the description names them)
VARIANTS = [
    (
        "transformer_translator.json",
        Model,
        2025,
        "pre",
        "nn.TransformerEncoderLayer and nn.TransformerDecoderLayer with norm_first=True",
    ),
    (
        "transformer_translator_post_ln.json",
        PostModel,
        2026,
        "post",
        "nn.TransformerEncoder and nn.TransformerDecoder with norm=None over "
        "nn.TransformerEncoderLayer and nn.TransformerDecoderLayer with norm_first=False",
    ),
]


def main():
    for variant in VARIANTS:
        write_variant(*variant)


def write_variant(name, make, seed, place, blocks):
    c = CONFIG
    word_vectors, model = random_model(
        seed, lambda x: make(c, x), c["sourceWords"], c["sourceWidth"]
    )
    rows = parameter_rows(model, c, place == "pre")
    parameters = parameter_values(rows)

    cases = []
    for smoothing in SMOOTHINGS:
        model.zero_grad()
        logits, labels = model(SOURCES, TARGETS)
        loss = F.cross_entropy(
            logits.reshape(-1, c["targetWords"]),
            labels.reshape(-1),
            ignore_index=IGNORED,
            label_smoothing=smoothing,
        )
        loss.backward()
        cases.append(
            {
                "labelSmoothing": smoothing,
                "loss": float(f"{loss.item():.17g}"),
                "gradients": gradients_of(rows),
            }
        )

    document = {
        "description": (
            "The whole Transformer translator from torch modules (nn.Linear, "
            + blocks
            + " and GELU tanh form, nn.LayerNorm, nn.Embedding tied to the output, "
            "F.cross_entropy with label smoothing): a batch of two pairs with padding, its loss "
            "and every parameter's gradient."
        ),
        "generator": "tools/make_transformer_translator_fixture.py (PyTorch %s, float64)"
        % torch.__version__,
        "encoding": (
            "matrices are flat row-major lists in the row-vector convention; numbers rounded to "
            "%d significant digits (the loss to 17)" % DIGITS
        ),
        "config": c if place == "pre" else dict(c, normPlace=place),
        "wordVectors": flat(word_vectors),
        "sources": SOURCES,
        "targets": TARGETS,
        "parameters": parameters,
        "cases": cases,
    }
    write_fixture(name, document)


if __name__ == "__main__":
    main()
