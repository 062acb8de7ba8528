"""Golden test fixtures for the attention core, computed with PyTorch as an independent reference.

Writes one JSON file per engine function into tests/fixtures/:

  softmax.json             row-wise softmax with temperatures, rows with -inf (masked) entries
  attention.json           scaled dot-product attention: scores, scaled, masked, weights, output
  scoring.json             additive (Bahdanau), dot and general alignment scores, weights, context
  multi_head.json          multi-head attention checked against torch.nn.MultiheadAttention itself
  positional.json          sinusoidal positional encoding for several (n, d), odd d included

Every file has the shape {"about", "generator", "encoding", "cases": [{"name", "input",
"expected"}]}. The keys of "input" are the argument names of the JavaScript engine facade, so a
case's input can be handed to the facade as it is (after decoding, see below). A multi-head case
also has "selfAttention": when true, "xkv" is left out and the queries' tokens xq serve as keys
and values too.

Encoding:
  * every matrix is a flat, row-major list of numbers; its shape is given by the size fields of the
    same input (nq, nk, dk, ...), exactly as the facade takes it;
  * -infinity is written as the string "-Infinity" (JSON has no infinities); no other non-finite
    value ever appears;
  * numbers are rounded to 8 significant digits. Inputs are rounded *before* the reference is
    computed, so the expected values belong to exactly the stored inputs;
  * multi-head weights use the project's row-vector convention (Q = Xq Wq + bq):
    Wq = in_proj_weight[0:d].T, Wk = in_proj_weight[d:2d].T, Wv = in_proj_weight[2d:3d].T,
    Wo = out_proj.weight.T, each d x d row-major; a bias is null when the module has none;
  * keyPadding is null (no padding) or one boolean per key, true = padded (never attended).

Everything is computed in float64 from inputs drawn under torch.manual_seed, so a rerun writes the
same files. Rerun from the repository root with Debian's Python, which has PyTorch:

    /usr/bin/python3 tools/make_fixtures.py
"""

import json
import math
import os

import torch

torch.set_default_dtype(torch.float64)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "tests", "fixtures")
DIGITS = 8
NEG_INF = "-Infinity"


# ----------------------------------------------------------------------------- encoding helpers


def round_sig(x):
    """Round a Python float to DIGITS significant digits; -inf becomes the string "-Infinity"."""
    if x == -math.inf:
        return NEG_INF
    if not math.isfinite(x):
        raise ValueError(f"fixture value {x} cannot be stored")
    return float(f"{x:.{DIGITS}g}")


def flat(t):
    """A tensor as a flat, row-major list of rounded numbers."""
    return [round_sig(float(x)) for x in t.detach().reshape(-1).tolist()]


def rounded(t):
    """The tensor with every entry rounded to DIGITS significant digits (still a float64 tensor)."""
    values = [float(f"{x:.{DIGITS}g}") if math.isfinite(x) else x for x in t.reshape(-1).tolist()]
    return torch.tensor(values, dtype=torch.float64).reshape(t.shape)


def randn(*shape, std=1.0):
    """Seeded normal samples, rounded to the stored precision."""
    return rounded(torch.randn(*shape) * std)


def uniform(*shape, limit=1.0):
    """Seeded uniform samples in [-limit, limit), rounded to the stored precision."""
    return rounded((torch.rand(*shape) * 2 - 1) * limit)


def write(name, about, cases):
    """Write tests/fixtures/<name>.json and report its size."""
    path = os.path.join(OUT_DIR, f"{name}.json")
    document = {
        "about": about,
        "generator": "tools/make_fixtures.py (PyTorch %s, float64)" % torch.__version__,
        "encoding": (
            "matrices are flat row-major lists; -infinity is the string \"-Infinity\"; "
            "numbers rounded to %d significant digits" % DIGITS
        ),
        "cases": cases,
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f, allow_nan=False, separators=(",", ":"))
        f.write("\n")
    print(f"{os.path.relpath(path, ROOT)}: {len(cases)} cases, {os.path.getsize(path)} bytes")


# ----------------------------------------------------------------------------- softmax


def softmax_cases():
    torch.manual_seed(101)
    cases = []

    def add(name, x, temperature):
        rows, cols = x.shape
        expected = torch.softmax(x / temperature, dim=1)
        assert torch.allclose(expected.sum(dim=1), torch.ones(rows))
        cases.append(
            {
                "name": name,
                "input": {"x": flat(x), "rows": rows, "cols": cols, "temperature": temperature},
                "expected": {"weights": flat(expected)},
            }
        )

    x = randn(4, 5, std=2.0)
    for temperature in (1.0, 0.5, 2.0, 10.0, 0.25):
        add(f"4x5 normal logits at temperature {temperature:g}", x, temperature)

    x = randn(5, 6)
    x[0, 1] = -math.inf
    x[1, 0] = x[1, 5] = -math.inf
    x[2, :5] = -math.inf  # one visible entry: weight exactly 1
    x[4, 2:] = -math.inf
    for temperature in (1.0, 0.5, 3.0):
        add(f"5x6 with -inf (masked) entries at temperature {temperature:g}", x, temperature)

    x = rounded(torch.tensor([[1000.0, 999.0, -1000.0, 0.0], [-1000.0, -1001.0, -999.5, -1002.0]]))
    add("large logits (1000 and -1000) stay finite", x, 1.0)
    add("large logits (1000 and -1000) at temperature 100", x, 100.0)
    add("one column is always weight 1", randn(3, 1), 1.0)
    add("one row of equal logits is uniform", rounded(torch.full((1, 7), 0.3)), 1.0)
    return cases


# ----------------------------------------------------------------------------- attention


def attention_reference(q, k, v, scale, temperature, causal, key_padding):
    """Scaled dot-product attention from torch ops, every intermediate kept."""
    nq, dk = q.shape
    nk = k.shape[0]
    scores = q @ k.T
    scaled = scores / math.sqrt(dk) if scale else scores.clone()
    hidden = torch.zeros(nq, nk, dtype=torch.bool)
    if causal:
        hidden |= torch.ones(nq, nk, dtype=torch.bool).triu(diagonal=1)
    if key_padding is not None:
        hidden |= torch.tensor(key_padding, dtype=torch.bool).unsqueeze(0)
    masked = scaled.masked_fill(hidden, -math.inf)
    weights = torch.softmax(masked / temperature, dim=-1)
    output = weights @ v
    # A second route to the same weights: exp over the visible keys only, normalised by hand.
    top = masked.amax(1, keepdim=True)
    e = torch.exp((scaled - top) / temperature).masked_fill(hidden, 0.0)
    assert torch.allclose(weights, e / e.sum(1, keepdim=True), rtol=1e-12, atol=1e-15)
    assert torch.all(weights[hidden] == 0)
    return scores, scaled, masked, weights, output


def attention_cases():
    torch.manual_seed(202)
    cases = []

    def add(name, nq, nk, dk, dv, scale=True, temperature=1.0, causal=False, key_padding=None):
        q, k, v = randn(nq, dk), randn(nk, dk), randn(nk, dv)
        scores, scaled, masked, weights, output = attention_reference(
            q, k, v, scale, temperature, causal, key_padding
        )
        cases.append(
            {
                "name": name,
                "input": {
                    "q": flat(q),
                    "k": flat(k),
                    "v": flat(v),
                    "nq": nq,
                    "nk": nk,
                    "dk": dk,
                    "dv": dv,
                    "scale": scale,
                    "temperature": temperature,
                    "causal": causal,
                    "keyPadding": key_padding,
                },
                "expected": {
                    "scores": flat(scores),
                    "scaled": flat(scaled),
                    "masked": flat(masked),
                    "weights": flat(weights),
                    "output": flat(output),
                },
            }
        )

    add("square 3x3 with dk = dv = 4", 3, 3, 4, 4)
    add("2 queries over 5 keys, dk = 3, dv = 6", 2, 5, 3, 6)
    add("4 queries over 6 keys, dk = 8, dv = 2, unscaled", 4, 6, 8, 2, scale=False)
    add("5 queries over 3 keys, dk = 16, dv = 5", 5, 3, 16, 5)
    add("one key takes all the weight", 3, 1, 4, 2)
    add("dk = 1", 4, 4, 1, 3)
    add("sharp softmax at temperature 0.5", 3, 4, 4, 3, temperature=0.5)
    add("flat softmax at temperature 2.5, unscaled", 3, 5, 6, 2, scale=False, temperature=2.5)
    add("causal 5x5", 5, 5, 4, 3, causal=True)
    add("causal 6x6 unscaled at temperature 0.75", 6, 6, 8, 4, False, 0.75, causal=True)
    f, t = False, True
    add("key padding hides keys 2 and 4", 3, 5, 4, 3, key_padding=[f, f, t, f, t])
    add("key padding hides all keys but one", 2, 4, 5, 2, key_padding=[t, t, f, t])
    add("causal with trailing padding", 5, 5, 4, 3, causal=True, key_padding=[f, f, f, t, t])
    add(
        "causal with padding in the middle",
        6, 6, 3, 5, causal=True, key_padding=[f, t, f, f, t, f],
    )
    return cases


# ----------------------------------------------------------------------------- scoring


def weigh(scores, h):
    weights = torch.softmax(scores, dim=0)
    context = weights @ h  # sum_j alpha_j h_j
    assert torch.allclose(context, (weights.unsqueeze(1) * h).sum(0))
    return {"scores": flat(scores), "weights": flat(weights), "context": flat(context)}


def scoring_cases():
    torch.manual_seed(303)
    cases = []

    for n, ds, dh, da in ((4, 3, 5, 6), (6, 4, 4, 2), (1, 2, 3, 4), (5, 8, 3, 8)):
        s, h = randn(ds), randn(n, dh)
        ws, wh, v = uniform(da, ds, limit=0.8), uniform(da, dh, limit=0.8), uniform(da, limit=1.5)
        scores = torch.tanh(h @ wh.T + ws @ s) @ v  # e_j = v . tanh(Ws s + Wh h_j)
        check = torch.stack([v @ torch.tanh(ws @ s + wh @ h[j]) for j in range(n)])
        assert torch.allclose(scores, check)
        cases.append(
            {
                "name": f"additive: {n} states, ds = {ds}, dh = {dh}, da = {da}",
                "input": {
                    "kind": "additive",
                    "s": flat(s),
                    "h": flat(h),
                    "n": n,
                    "ds": ds,
                    "dh": dh,
                    "da": da,
                    "ws": flat(ws),
                    "wh": flat(wh),
                    "v": flat(v),
                },
                "expected": weigh(scores, h),
            }
        )

    for n, d in ((4, 3), (7, 5), (1, 4), (3, 16)):
        s, h = randn(d), randn(n, d)
        scores = h @ s  # e_j = s . h_j
        cases.append(
            {
                "name": f"dot: {n} states of size {d}",
                "input": {"kind": "dot", "s": flat(s), "h": flat(h), "n": n, "ds": d, "dh": d},
                "expected": weigh(scores, h),
            }
        )

    for n, ds, dh in ((4, 3, 5), (5, 4, 4), (2, 6, 1), (6, 2, 7)):
        s, h, w = randn(ds), randn(n, dh), uniform(ds, dh)
        scores = torch.stack([s @ (w @ h[j]) for j in range(n)])  # e_j = s . (W h_j)
        assert torch.allclose(scores, h @ w.T @ s)
        cases.append(
            {
                "name": f"general: {n} states, ds = {ds}, dh = {dh}",
                "input": {
                    "kind": "general",
                    "s": flat(s),
                    "h": flat(h),
                    "n": n,
                    "ds": ds,
                    "dh": dh,
                    "w": flat(w),
                },
                "expected": weigh(scores, h),
            }
        )
    return cases


# ----------------------------------------------------------------------------- multi-head


def multi_head_case(name, d, heads, nq, nk, bias, self_attention, causal=False, key_padding=None):
    mha = torch.nn.MultiheadAttention(d, heads, bias=bias, batch_first=True).double().eval()
    with torch.no_grad():
        mha.in_proj_weight.copy_(uniform(3 * d, d, limit=math.sqrt(6 / (2 * d))))
        mha.out_proj.weight.copy_(uniform(d, d, limit=math.sqrt(6 / (2 * d))))
        if bias:
            mha.in_proj_bias.copy_(uniform(3 * d, limit=0.5))
            mha.out_proj.bias.copy_(uniform(d, limit=0.5))
    xq = randn(nq, d)
    xkv = xq if self_attention else randn(nk, d)

    attn_mask = torch.ones(nq, nk, dtype=torch.bool).triu(diagonal=1) if causal else None
    padding = torch.tensor([key_padding], dtype=torch.bool) if key_padding is not None else None
    with torch.no_grad():
        out, torch_weights = mha(
            xq.unsqueeze(0),
            xkv.unsqueeze(0),
            xkv.unsqueeze(0),
            key_padding_mask=padding,
            need_weights=True,
            attn_mask=attn_mask,
            average_attn_weights=False,
        )
    out, torch_weights = out[0], torch_weights[0]  # (nq, d), (heads, nq, nk)
    assert torch_weights.shape == (heads, nq, nk)

    # The row-vector convention of the project.
    w = mha.in_proj_weight.detach()
    wq, wk, wv, wo = w[0:d].T, w[d : 2 * d].T, w[2 * d : 3 * d].T, mha.out_proj.weight.detach().T
    if bias:
        b = mha.in_proj_bias.detach()
        bq, bk, bv, bo = b[0:d], b[d : 2 * d], b[2 * d : 3 * d], mha.out_proj.bias.detach()
    else:
        bq = bk = bv = bo = torch.zeros(d)

    # Per-head outputs are not returned by torch: rebuild them from its projections and weights.
    q, k, v = xq @ wq + bq, xkv @ wk + bk, xkv @ wv + bv
    dk = d // heads
    hidden = torch.zeros(nq, nk, dtype=torch.bool)
    if attn_mask is not None:
        hidden |= attn_mask
    if padding is not None:
        hidden |= padding
    expected_heads, outputs = [], []
    for head in range(heads):
        cols = slice(head * dk, (head + 1) * dk)
        qh, kh, vh = q[:, cols], k[:, cols], v[:, cols]
        mine = torch.softmax((qh @ kh.T / math.sqrt(dk)).masked_fill(hidden, -math.inf), dim=-1)
        assert torch.allclose(mine, torch_weights[head], rtol=1e-10, atol=1e-12), name
        assert torch.all(torch_weights[head][hidden] == 0), name
        output = torch_weights[head] @ vh
        outputs.append(output)
        expected_heads.append({"weights": flat(torch_weights[head]), "output": flat(output)})
    rebuilt = torch.cat(outputs, dim=1) @ wo + bo  # concat . Wo^T + bo in PyTorch's terms
    assert torch.allclose(rebuilt, out, rtol=1e-10, atol=1e-12), name

    case_input = {
        "xq": flat(xq),
        "nq": nq,
        "nk": nk,
        "dModel": d,
        "heads": heads,
        "wq": flat(wq),
        "wk": flat(wk),
        "wv": flat(wv),
        "wo": flat(wo),
        "bq": flat(bq) if bias else None,
        "bk": flat(bk) if bias else None,
        "bv": flat(bv) if bias else None,
        "bo": flat(bo) if bias else None,
        "causal": causal,
        "keyPadding": key_padding,
    }
    if not self_attention:
        case_input["xkv"] = flat(xkv)
    return {
        "name": name,
        "selfAttention": self_attention,
        "input": case_input,
        "expected": {"heads": expected_heads, "output": flat(out)},
    }


def multi_head_cases():
    torch.manual_seed(404)
    f, t = False, True
    # (name, d_model, heads, nq, nk, bias, self-attention, options)
    table = [
        ("self-attention with biases, d = 8, 2 heads", 8, 2, 5, 5, t, t, {}),
        ("self-attention without biases, d = 8, 2 heads", 8, 2, 5, 5, f, t, {}),
        ("self-attention with biases, d = 8, 1 head", 8, 1, 4, 4, t, t, {}),
        ("self-attention with biases, d = 8, 8 heads", 8, 8, 3, 3, t, t, {}),
        ("self-attention with biases, d = 12, 3 heads", 12, 3, 6, 6, t, t, {}),
        ("self-attention without biases, d = 16, 4 heads", 16, 4, 7, 7, f, t, {}),
        (
            "cross-attention with biases, d = 8, 4 heads, 3 queries over 6 keys",
            8, 4, 3, 6, t, f, {},
        ),
        (
            "cross-attention without biases, d = 6, 3 heads, 5 queries over 2 keys",
            6, 3, 5, 2, f, f, {},
        ),
        ("causal self-attention with biases, d = 8, 2 heads", 8, 2, 6, 6, t, t, {"causal": t}),
        ("causal self-attention without biases, d = 12, 4 heads", 12, 4, 5, 5, f, t, {"causal": t}),
        (
            "self-attention with key padding, d = 8, 4 heads",
            8, 4, 5, 5, t, t, {"key_padding": [f, f, f, t, t]},
        ),
        (
            "cross-attention with key padding, d = 6, 2 heads",
            6, 2, 3, 5, t, f, {"key_padding": [t, f, t, f, f]},
        ),
        (
            "causal self-attention with key padding, d = 8, 2 heads",
            8, 2, 6, 6, t, t, {"causal": t, "key_padding": [f, t, f, f, f, t]},
        ),
    ]
    return [multi_head_case(*row[:7], **row[7]) for row in table]


# ----------------------------------------------------------------------------- positional


def positional_cases():
    cases = []
    for n, d in ((4, 4), (6, 5), (10, 16), (3, 1), (8, 7), (1, 3), (50, 8), (16, 64)):
        pos = torch.arange(n, dtype=torch.float64).unsqueeze(1)  # (n, 1)
        two_i = torch.arange(0, d, 2, dtype=torch.float64)  # 2i for each pair of columns
        angle = pos / torch.pow(10000.0, two_i / d)  # (n, ceil(d/2))
        pe = torch.zeros(n, d)
        pe[:, 0::2] = torch.sin(angle)
        pe[:, 1::2] = torch.cos(angle[:, : d // 2])
        cases.append(
            {"name": f"n = {n}, d = {d}", "input": {"n": n, "d": d}, "expected": {"pe": flat(pe)}}
        )
    return cases


# ----------------------------------------------------------------------------- main


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    write("softmax", "Row-wise softmax(x / temperature) from torch.softmax.", softmax_cases())
    write(
        "attention",
        "Scaled dot-product attention from torch ops: softmax(mask(Q K^T / sqrt(dk)) / T) V.",
        attention_cases(),
    )
    write(
        "scoring",
        "Additive, dot and general alignment scores with softmax weights and context.",
        scoring_cases(),
    )
    write(
        "multi_head",
        "Multi-head attention from torch.nn.MultiheadAttention (batch_first, "
        "average_attn_weights=False); per-head outputs rebuilt from its projections and checked "
        "against its output.",
        multi_head_cases(),
    )
    write(
        "positional",
        "Sinusoidal positional encoding, PE(pos, 2i) = sin, PE(pos, 2i+1) = cos.",
        positional_cases(),
    )


if __name__ == "__main__":
    main()
