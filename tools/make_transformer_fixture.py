"""Golden fixture for the core's encoder block and decoder block with cross-attention, computed with
PyTorch's own modules as an independent reference: tests/fixtures/transformer_blocks.json, read by
tests/cpp/unit-transformer-blocks-reference.cpp.

The modules are PyTorch's nn.TransformerEncoderLayer and nn.TransformerDecoderLayer with
norm_first=True (pre-layer-norm), dropout 0, layer_norm_eps 1e-5, batch_first=True, and as their
activation GELU in its tanh form, F.gelu(x, approximate="tanh"), the core's (mlp.hpp): PyTorch's
own layer takes a callable activation, and its feed-forward block is then exactly the core's MLP
(linear1, GELU, linear2). So:

  encoder (attn::encoder_block_forward):
    h = x + self_attn(norm1(x))           nn.MultiheadAttention, src_key_padding_mask, no mask
    y = h + linear2(gelu(linear1(norm2(h))))
  decoder (attn::cross_decoder_block_forward):
    h1 = x + self_attn(norm1(x))          causal tgt_mask
    h2 = h1 + multihead_attn(norm2(h1), memory)   memory_key_padding_mask
    y = h2 + linear2(gelu(linear1(norm3(h2))))

A batch of two sentences goes through each layer, each with its own key padding (True = padded
position, as PyTorch's masks mark it; 1 in the core's KeyPadding). The loss is sum(y * r) for a
fixed random r over every row of both sentences, so its gradient with respect to y is r. The
fixture holds, per sentence: the inputs, the padding, r, y, every head's attention weights (read
from the layer's own attention modules, called again with need_weights=True on the same
normalised inputs), and dL/dx (and dL/d(memory) for the decoder); and dL/d(every parameter) over
the batch (autograd).

Encoding: as tools/make_lm_fixture.py. Every matrix is a flat, row-major list in the project's
row-vector convention (W_q is in_proj_weight[0:d].T, W_o is out_proj.weight.T, W_1 is
linear1.weight.T, ...), named as the core's parameters() names them (the encoder block's
"encoder.norm1.gain", "encoder.attention.W_q", ...; the decoder block's "decoder.norm1.gain",
"decoder.self_attention.W_q", "decoder.cross_attention.W_q", ...); numbers rounded to 8
significant digits, inputs rounded before the reference is computed. Everything is float64 and
seeded, so a rerun writes the same file. Rerun from the repository root:

    /usr/bin/python3 tools/make_transformer_fixture.py
"""

import torch
import torch.nn.functional as F

from fixture_common import DIGITS, flat, randomise, rounded, write_fixture
from fixture_common import attention_rows, gradients_of, norm_rows, parameter_values

CONFIG = {"dModel": 8, "heads": 4, "dMlp": 32}

# Per sentence: the decoder's length, and the encoder's padding, one flag per encoder position
# (its length): padding at the end, as a batch of English sentences of different lengths has it,
# and a sentence with none.
SENTENCES = [
    {"decoderLength": 5, "padding": [0, 0, 0, 0, 1, 1]},
    {"decoderLength": 3, "padding": [0, 0, 0, 0]},
]


def gelu_tanh(x):
    return F.gelu(x, approximate="tanh")


def layer_options(c):
    """The keyword arguments that make nn.TransformerEncoderLayer and nn.TransformerDecoderLayer
    the core's blocks: pre-layer-norm, GELU in its tanh form, no dropout, batch first."""
    return dict(
        dim_feedforward=c["dMlp"],
        dropout=0.0,
        activation=gelu_tanh,
        layer_norm_eps=1e-5,
        batch_first=True,
        norm_first=True,
    )


def mlp_rows(prefix, layer):
    return [
        (f"{prefix}.W_1", layer.linear1.weight, lambda t: t.T),
        (f"{prefix}.b_1", layer.linear1.bias, lambda t: t),
        (f"{prefix}.W_2", layer.linear2.weight, lambda t: t.T),
        (f"{prefix}.b_2", layer.linear2.bias, lambda t: t),
    ]


def encoder_parameters(layer, d, prefix="encoder"):
    """attn::EncoderBlockWeights::parameters(), in its order, for a block named prefix."""
    return (
        norm_rows(f"{prefix}.norm1", layer.norm1)
        + attention_rows(f"{prefix}.attention", layer.self_attn, d)
        + norm_rows(f"{prefix}.norm2", layer.norm2)
        + mlp_rows(f"{prefix}.mlp", layer)
    )


def decoder_parameters(layer, d, prefix="decoder"):
    """attn::CrossDecoderBlockWeights::parameters(), in its order, for a block named prefix."""
    return (
        norm_rows(f"{prefix}.norm1", layer.norm1)
        + attention_rows(f"{prefix}.self_attention", layer.self_attn, d)
        + norm_rows(f"{prefix}.norm2", layer.norm2)
        + attention_rows(f"{prefix}.cross_attention", layer.multihead_attn, d)
        + norm_rows(f"{prefix}.norm3", layer.norm3)
        + mlp_rows(f"{prefix}.mlp", layer)
    )


def parameter_table(rows, layer):
    assert len(rows) == len(list(layer.parameters())) + 4 * sum(
        isinstance(m, torch.nn.MultiheadAttention) for m in layer.modules()
    )  # in_proj split into W_q, b_q, W_k, b_k, W_v, b_v: 2 tensors become 6
    return parameter_values(rows), gradients_of(rows)


def heads_of(weights, heads):
    """weights: (batch 1, heads, n_q, n_k) -> one flat (n_q, n_k) list per head."""
    return [flat(weights[0, h]) for h in range(heads)]


def main():
    torch.manual_seed(2024)
    c = CONFIG
    d, heads = c["dModel"], c["heads"]
    options = layer_options(c)
    encoder = torch.nn.TransformerEncoderLayer(d, heads, **options)
    decoder = torch.nn.TransformerDecoderLayer(d, heads, **options)
    randomise(encoder)
    randomise(decoder)
    encoder.zero_grad()
    decoder.zero_grad()

    encoder_out, decoder_out = [], []
    for s in SENTENCES:
        t_enc, t_dec = len(s["padding"]), s["decoderLength"]
        padding = torch.tensor([s["padding"]], dtype=torch.bool)  # (1, T_enc), True = padded
        causal = torch.ones(t_dec, t_dec, dtype=torch.bool).triu(diagonal=1)  # True = hidden

        # The encoder block over the English sentence.
        x = rounded(torch.randn(1, t_enc, d)).requires_grad_()
        r = rounded(torch.randn(1, t_enc, d))
        y = encoder(x, src_key_padding_mask=padding)
        (y * r).sum().backward()
        with torch.no_grad():
            n1 = encoder.norm1(x)
            _, weights = encoder.self_attn(
                n1, n1, n1, key_padding_mask=padding, need_weights=True, average_attn_weights=False
            )
        assert torch.all(weights[0][:, :, padding[0]] == 0)
        encoder_out.append(
            {
                "x": flat(x[0]),
                "padding": s["padding"],
                "r": flat(r[0]),
                "y": flat(y[0]),
                "attention": heads_of(weights, heads),
                "dx": flat(x.grad[0]),
            }
        )

        # The decoder block with cross-attention over an encoder output (a random one: the block
        # reads it as it is).
        x = rounded(torch.randn(1, t_dec, d)).requires_grad_()
        memory = rounded(torch.randn(1, t_enc, d)).requires_grad_()
        r = rounded(torch.randn(1, t_dec, d))
        y = decoder(x, memory, tgt_mask=causal, memory_key_padding_mask=padding)
        (y * r).sum().backward()
        with torch.no_grad():
            n1 = decoder.norm1(x)
            _, self_weights = decoder.self_attn(
                n1, n1, n1, attn_mask=causal, need_weights=True, average_attn_weights=False
            )
            h1 = x + decoder._sa_block(n1, causal, None)
            n2 = decoder.norm2(h1)
            _, cross_weights = decoder.multihead_attn(
                n2,
                memory,
                memory,
                key_padding_mask=padding,
                need_weights=True,
                average_attn_weights=False,
            )
            # The weights read again are the ones the layer used: its output from h1 on agrees.
            h2 = h1 + decoder._mha_block(n2, memory, None, padding)
            assert torch.allclose(h2 + decoder._ff_block(decoder.norm3(h2)), y, atol=1e-12)
        assert torch.all(self_weights[0][:, causal] == 0)
        assert torch.all(cross_weights[0][:, :, padding[0]] == 0)
        decoder_out.append(
            {
                "x": flat(x[0]),
                "memory": flat(memory[0]),
                "padding": s["padding"],
                "r": flat(r[0]),
                "y": flat(y[0]),
                "selfAttention": heads_of(self_weights, heads),
                "crossAttention": heads_of(cross_weights, heads),
                "dx": flat(x.grad[0]),
                "dMemory": flat(memory.grad[0]),
            }
        )

    encoder_parameters_table, encoder_gradients = parameter_table(
        encoder_parameters(encoder, d), encoder
    )
    decoder_parameters_table, decoder_gradients = parameter_table(
        decoder_parameters(decoder, d), decoder
    )
    document = {
        "about": (
            "An encoder block and a decoder block with cross-attention from torch modules "
            "(nn.TransformerEncoderLayer and nn.TransformerDecoderLayer, norm_first=True, GELU "
            "tanh form, dropout 0), with key padding: outputs, every head's attention weights, "
            "and the gradients of sum(y * r) for the inputs and every parameter."
        ),
        "generator": "tools/make_transformer_fixture.py (PyTorch %s, float64)" % torch.__version__,
        "encoding": (
            "matrices are flat row-major lists in the row-vector convention; numbers rounded to "
            "%d significant digits; padding 1 = a padded encoder position" % DIGITS
        ),
        "config": c,
        "encoder": {
            "parameters": encoder_parameters_table,
            "sentences": encoder_out,
            "gradients": encoder_gradients,
        },
        "decoder": {
            "parameters": decoder_parameters_table,
            "sentences": decoder_out,
            "gradients": decoder_gradients,
        },
    }
    write_fixture("transformer_blocks.json", document)


if __name__ == "__main__":
    main()
