"""Golden fixture for the core's causal language model, computed with PyTorch as an independent
reference: tests/fixtures/language_model.json, read by tests/cpp/unit-language-model-reference.cpp.

A small random model of the same architecture as attn::LanguageModel (src/include/attn/
language_model.hpp, docs/language-model.md), built from PyTorch's own modules:

  x = E[t] W_in + b_in + P                      nn.Linear, a learned (context, d_model) table
  per block:  x = x + MHA(LN1(x))               nn.LayerNorm (eps 1e-5), nn.MultiheadAttention
                                                with a causal attn_mask
              x = x + MLP(LN2(x))               nn.Linear, GELU (tanh form), nn.Linear
  logits = (LN_f(x) W_out) E^T + b_out          nn.LayerNorm, nn.Linear without bias, E frozen

It writes the configuration, the frozen word vectors E, every parameter, a batch of two
sequences (tokens and next-token targets, one ignored), and what PyTorch computes from them:
every position's logits, every layer's and head's attention weights, the batch's mean
cross-entropy over the counted targets (F.cross_entropy with ignore_index) and its gradient
with respect to every parameter (autograd).

Encoding: as tools/make_fixtures.py. Every matrix is a flat, row-major list in the project's
row-vector convention (W_q is in_proj_weight[0:d].T, W_o is out_proj.weight.T, W_1 is
fc1.weight.T, ...), named as attn::LanguageModel::parameters() names it; numbers rounded to 8
significant digits, inputs rounded before the reference is computed. Everything is float64 and
seeded, so a rerun writes the same file. Rerun from the repository root:

    /usr/bin/python3 tools/make_lm_fixture.py
"""

import torch
import torch.nn.functional as F

from fixture_common import DIGITS, flat, random_model, write_fixture
from fixture_common import attention_rows, gradients_of, norm_rows, parameter_values

IGNORED = -1  # attn::kIgnoredTarget

CONFIG = {
    "vocab": 13,
    "dEmbed": 6,
    "dModel": 8,
    "layers": 2,
    "heads": 4,
    "dMlp": 32,
    "context": 8,
}


class Block(torch.nn.Module):
    def __init__(self, d, heads, d_mlp):
        super().__init__()
        self.norm1 = torch.nn.LayerNorm(d, eps=1e-5)
        self.attention = torch.nn.MultiheadAttention(d, heads, bias=True, batch_first=True)
        self.norm2 = torch.nn.LayerNorm(d, eps=1e-5)
        self.fc1 = torch.nn.Linear(d, d_mlp)
        self.fc2 = torch.nn.Linear(d_mlp, d)

    def forward(self, x):
        n = x.shape[1]
        causal = torch.ones(n, n, dtype=torch.bool).triu(diagonal=1)  # True = hidden
        a = self.norm1(x)
        out, weights = self.attention(
            a, a, a, attn_mask=causal, need_weights=True, average_attn_weights=False
        )
        x = x + out
        x = x + self.fc2(F.gelu(self.fc1(self.norm2(x)), approximate="tanh"))
        return x, weights[0]  # weights: (heads, n, n)


class LanguageModel(torch.nn.Module):
    def __init__(self, c, word_vectors):
        super().__init__()
        self.register_buffer("E", word_vectors)  # frozen: a buffer, not a parameter
        self.input = torch.nn.Linear(c["dEmbed"], c["dModel"])
        self.P = torch.nn.Parameter(torch.zeros(c["context"], c["dModel"]))
        self.blocks = torch.nn.ModuleList(
            Block(c["dModel"], c["heads"], c["dMlp"]) for _ in range(c["layers"])
        )
        self.final_norm = torch.nn.LayerNorm(c["dModel"], eps=1e-5)
        self.output = torch.nn.Linear(c["dModel"], c["dEmbed"], bias=False)
        self.b_out = torch.nn.Parameter(torch.zeros(c["vocab"]))

    def forward(self, tokens):
        n = len(tokens)
        x = self.input(self.E[tokens]) + self.P[:n]
        x = x.unsqueeze(0)
        weights = []
        for block in self.blocks:
            x, w = block(x)
            weights.append(w)
        logits = self.output(self.final_norm(x[0])) @ self.E.T + self.b_out
        return logits, weights


def named_parameters(model, c):
    """(name, tensor in the row-vector convention, torch parameter, how to map its grad)."""
    d = c["dModel"]
    rows = [
        ("W_in", model.input.weight, lambda t: t.T),
        ("b_in", model.input.bias, lambda t: t),
        ("P", model.P, lambda t: t),
    ]
    for l, b in enumerate(model.blocks):
        p = f"block{l}"
        rows += (
            norm_rows(f"{p}.norm1", b.norm1)
            + attention_rows(f"{p}.attention", b.attention, d)
            + norm_rows(f"{p}.norm2", b.norm2)
        )
        rows += [
            (f"{p}.mlp.W_1", b.fc1.weight, lambda t: t.T),
            (f"{p}.mlp.b_1", b.fc1.bias, lambda t: t),
            (f"{p}.mlp.W_2", b.fc2.weight, lambda t: t.T),
            (f"{p}.mlp.b_2", b.fc2.bias, lambda t: t),
        ]
    rows += norm_rows("final_norm", model.final_norm)
    rows += [
        ("W_out", model.output.weight, lambda t: t.T),
        ("b_out", model.b_out, lambda t: t),
    ]
    return rows


def main():
    c = CONFIG
    word_vectors, model = random_model(1010, lambda x: LanguageModel(c, x), c["vocab"], c["dEmbed"])

    # Two sequences: one at the full context, one shorter; one target ignored.
    sequences = [
        {"tokens": [3, 7, 1, 12, 0, 5, 5, 9], "targets": [7, 1, 12, 0, 5, 5, 9, 2]},
        {"tokens": [4, 11, 2, 6, 8], "targets": [11, 2, IGNORED, 8, 10]},
    ]
    model.zero_grad()
    losses, counted, out = [], 0, []
    for s in sequences:
        logits, weights = model(s["tokens"])
        targets = torch.tensor(s["targets"])
        losses.append(F.cross_entropy(logits, targets, ignore_index=IGNORED, reduction="sum"))
        counted += int((targets != IGNORED).sum())
        # The attention weights are rows of a distribution, exactly 0 above the diagonal.
        for w in weights:
            n = len(s["tokens"])
            assert torch.all(w[:, torch.ones(n, n, dtype=torch.bool).triu(1)] == 0)
            assert torch.allclose(w.sum(-1), torch.ones(w.shape[:2]))
        out.append(
            {
                "tokens": s["tokens"],
                "targets": s["targets"],
                "logits": flat(logits),
                "attention": [[flat(w[h]) for h in range(c["heads"])] for w in weights],
            }
        )
    loss = sum(losses) / counted
    loss.backward()

    rows = named_parameters(model, c)
    parameters, gradients = parameter_values(rows), gradients_of(rows)
    assert len(parameters) == len(list(model.parameters())) + 4 * c["layers"]  # in_proj split

    document = {
        "about": (
            "A causal language model from torch modules (nn.LayerNorm, nn.MultiheadAttention "
            "with a causal mask, GELU tanh form, output tied to frozen word vectors): logits, "
            "attention weights, mean cross-entropy and its gradients for every parameter."
        ),
        "generator": "tools/make_lm_fixture.py (PyTorch %s, float64)" % torch.__version__,
        "encoding": (
            "matrices are flat row-major lists in the row-vector convention; numbers rounded to "
            "%d significant digits; target %d is ignored" % (DIGITS, IGNORED)
        ),
        "config": c,
        "wordVectors": flat(word_vectors),
        "parameters": parameters,
        "sequences": out,
        "loss": float(f"{float(loss):.{DIGITS}g}"),
        "gradients": gradients,
    }
    write_fixture("language_model.json", document, f"loss {float(loss):.6f}, ")


if __name__ == "__main__":
    main()
