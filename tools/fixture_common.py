"""What the PyTorch fixture scripts (tools/make_*_fixture.py) share: where the fixtures live, the
rounding of numbers to DIGITS significant digits, the core's (rows, cols) shapes, random
parameters in general position, and the writing of a fixture file.

Importing it makes float64 torch's default dtype: every fixture is computed in float64, and each
script seeds its draws, so a rerun writes the same file.
"""

import json
import os

import torch

torch.set_default_dtype(torch.float64)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIGITS = 8


def flat(t):
    """A tensor as a flat, row-major list of numbers rounded to DIGITS significant digits."""
    return [float(f"{x:.{DIGITS}g}") for x in t.detach().reshape(-1).tolist()]


def rounded(t):
    """t with every entry rounded to DIGITS significant digits: inputs are rounded before the
    reference is computed, so the fixture's numbers are exactly the inputs."""
    values = [float(f"{x:.{DIGITS}g}") for x in t.reshape(-1).tolist()]
    return torch.tensor(values).reshape(t.shape)


def shape_of(t):
    """The core's shape of a parameter: a vector is one row."""
    return [t.shape[0], t.shape[1]] if t.dim() == 2 else [1, t.shape[0]]


def attention_rows(prefix, a, d):
    """The four projections of one nn.MultiheadAttention of width d, as (the core's name, torch
    parameter, its view in the core's row-vector convention), in the core's order."""
    rows = []
    for j, s in enumerate("qkv"):
        lo, hi = j * d, (j + 1) * d
        rows += [
            (f"{prefix}.W_{s}", a.in_proj_weight, lambda t, lo=lo, hi=hi: t[lo:hi].T),
            (f"{prefix}.b_{s}", a.in_proj_bias, lambda t, lo=lo, hi=hi: t[lo:hi]),
        ]
    rows += [
        (f"{prefix}.W_o", a.out_proj.weight, lambda t: t.T),
        (f"{prefix}.b_o", a.out_proj.bias, lambda t: t),
    ]
    return rows


def norm_rows(prefix, n):
    """One nn.LayerNorm's gain and bias, as attention_rows lists them."""
    return [(f"{prefix}.gain", n.weight, lambda t: t), (f"{prefix}.bias", n.bias, lambda t: t)]


def parameter_values(rows):
    """rows of (the core's name, torch parameter, its view in the core's convention) -> each
    view's shape and rounded values by name, in the rows' order."""
    values = {}
    for name, p, view in rows:
        value = view(p.detach())
        values[name] = {"shape": shape_of(value), "value": flat(value)}
    return values


def gradients_of(rows):
    """rows as parameter_values takes them -> each parameter's gradient, viewed and rounded, by
    name."""
    return {name: flat(view(p.grad)) for name, p, view in rows}


def randomise(module):
    """Every parameter in general position: random weights and biases, gains near 1."""
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(rounded(torch.randn(p.shape) * 0.4))
        for m in module.modules():
            if isinstance(m, torch.nn.LayerNorm):
                m.weight.copy_(rounded(1 + torch.randn(m.weight.shape) * 0.2))


def random_model(seed, make_model, words, width):
    """Seeds torch with seed, then draws the frozen word vectors (words, width), rounded, and
    make_model(word_vectors) with every parameter in general position (randomise). Returns both."""
    torch.manual_seed(seed)
    word_vectors = rounded(torch.randn(words, width))
    model = make_model(word_vectors)
    randomise(model)
    return word_vectors, model


def write_fixture(name, document, summary=""):
    """Writes document to tests/fixtures/<name> as one line of compact JSON and prints the path,
    summary and size."""
    path = os.path.join(ROOT, "tests", "fixtures", name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f, allow_nan=False, separators=(",", ":"))
        f.write("\n")
    print(f"{os.path.relpath(path, ROOT)}: {summary}{os.path.getsize(path)} bytes")
