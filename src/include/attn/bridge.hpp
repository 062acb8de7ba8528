// What joins a model's encoder to its decoder: one fixed vector that sums up the input, or
// attention over every encoder state at every output step. The reversal models (seq2seq.hpp) and
// the translators (translator.hpp) each come in both kinds, the one difference the lesson measures.
#pragma once

namespace attn {

enum class Bridge { fixed_vector, attention };

// "fixed-vector" or "attention".
const char* bridge_name(Bridge bridge);

}  // namespace attn
