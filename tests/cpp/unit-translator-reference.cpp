// attn::Translator, both bridges, against models of the same architecture built from PyTorch's own
// modules (nn.GRU bidirectional over packed sequences, nn.GRUCell, additive attention from torch
// ops, output tied to the German embeddings; tools/make_translator_fixture.py): per pair the
// encoder states, s_0, and per decoder step the attention weights, context, state, output, logits
// and dL/dlogits; the batch's mean cross-entropy; and greedy translations.
//
// Tolerances:
// - double, 1e-12 relative, entry by entry (entries below a hundredth of their matrix's largest
//   compared absolutely at that scale). The fixture's inputs are 8-digit decimals, read exactly,
//   and its outputs are written in full, so only rounding differs: float64 sums in another order,
//   and the C library's tanh and exp against PyTorch's (each within an ulp or two, 1e-16). Over
//   the few steps of these tiny models that grows to about 2e-14 in the worst entry; 1e-12 leaves
//   room for another compiler's or library's rounding and still catches any wrong formula.
// - float, 1e-5 of each matrix's largest entry (normwise). The parameters are rounded to float32
//   (3e-8 relative), every operation rounds at 6e-8, and the core's float exp and tanh are its own
//   (2e-7 relative, 3e-7 absolute): normwise that comes to about 3e-7 here. Entry by entry the
//   small entries of a sum of larger terms (a context, a logit near 0) are off by up to 1.5e-5 of
//   their own size, so float is held to each matrix's scale instead, as in
//   unit-language-model-reference.cpp.
// - A Translation keeps its weights and log-probability as float: in double they are held to
//   1e-7 relative, entry by entry (the rounding to float is at most 6e-8 of each); in float as
//   the float forward pass.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "attn/translator.hpp"
#include "fixtures/translator.hpp"
#include "reference_fixture.hpp"

namespace {

using test::json;
using test::numbers;

const json& fixture() {
  static const json document = json::parse(test::fixtures::kTranslator);
  return document;
}

attn::TranslatorConfig config_of(const json& c, attn::Bridge bridge) {
  attn::TranslatorConfig config;
  config.bridge = bridge;
  config.source_words = c.at("sourceWords").get<int>();
  config.source_width = c.at("sourceWidth").get<int>();
  config.target_words = c.at("targetWords").get<int>();
  config.target_width = c.at("targetWidth").get<int>();
  config.encoder_state = c.at("encoderState").get<int>();
  config.decoder_state = c.at("decoderState").get<int>();
  config.attention = c.at("attention").get<int>();
  return config;
}

const json& model_fixture(attn::Bridge bridge) {
  return fixture().at("models").at(attn::bridge_name(bridge));
}

// The fixture's model of one bridge: its word vectors, and every parameter set by name through
// parameters().
template <typename T>
attn::Translator<T> reference_model(attn::Bridge bridge) {
  const json& f = fixture();
  const attn::TranslatorConfig config = config_of(f.at("config"), bridge);
  attn::Translator<T> model(config, test::matrix<T>(numbers(f.at("wordVectors")),
                                                    config.source_words, config.source_width));
  INFO(attn::bridge_name(bridge));
  test::set_parameters(model.parameters(), model_fixture(bridge).at("parameters"));
  return model;
}

// Checks matrices against the fixture's.
struct Comparison {
  double tolerance;
  double floor_share;

  template <typename T>
  void check(const std::string& what, const attn::MatrixT<T>& actual,
             const std::vector<double>& expected) {
    const double error = test::worst_error(actual, expected, floor_share, 1e-300);
    INFO(what << " within " << error << " (tolerance " << tolerance << ")");
    CHECK(error < tolerance);
  }
};

attn::TranslationBatch batch_of(const json& pairs) {
  attn::TranslationBatch batch;
  for (const json& p : pairs) {
    batch.sources.push_back(p.at("source").get<std::vector<int>>());
    batch.targets.push_back(p.at("target").get<std::vector<int>>());
  }
  return batch;
}

// The teacher-forced pass of one bridge, every pair and every step.
template <typename T>
void check_forward(attn::Bridge bridge, double tolerance, double floor_share) {
  auto model = reference_model<T>(bridge);
  const json& f = model_fixture(bridge);
  const attn::TranslatorConfig& c = model.config();
  const Eigen::Index h_e2 = 2 * c.encoder_state, h_d = c.decoder_state, d_y = c.target_width,
                     v = c.target_words;
  const bool attend = bridge == attn::Bridge::attention;
  const json& pairs = f.at("pairs");
  const auto pass = model.forward(batch_of(pairs));
  const int n_b = pass.batch;
  REQUIRE(n_b == static_cast<int>(pairs.size()));

  // The logits are not kept in the pass (its d_logits holds their gradient): o D^T + b_out, from
  // the pass's o.
  const attn::Parameter<T>* embedding = nullptr;
  const attn::Parameter<T>* logit_b = nullptr;
  for (attn::Parameter<T>* p : model.parameters()) {
    if (p->name == "target_embedding") embedding = p;
    if (p->name == "logit_b") logit_b = p;
  }
  REQUIRE(embedding);
  REQUIRE(logit_b);
  attn::MatrixT<T> all_logits = pass.output.y * embedding->value.transpose();
  all_logits.rowwise() += logit_b->value.row(0);

  Comparison compare{tolerance, floor_share};
  for (int b = 0; b < n_b; ++b) {
    const json& expected = pairs.at(static_cast<size_t>(b));
    const std::string pair = std::string(attn::bridge_name(bridge)) + ", pair " + std::to_string(b);
    const Eigen::Index n = pass.source_lengths[static_cast<size_t>(b)];
    const int m = pass.target_lengths[static_cast<size_t>(b)];
    compare.check(pair + ": encoder states h", pass.states[static_cast<size_t>(b)],
                  numbers(expected.at("encoderStates")));
    compare.check(pair + ": s_0", attn::MatrixT<T>(pass.init.y.row(b)),
                  numbers(expected.at("initialState")));

    // One row per decoder step of this pair (with </s>).
    attn::MatrixT<T> weights = attn::MatrixT<T>::Zero(m, n), contexts(m, h_e2), states(m, h_d),
                     outputs(m, d_y), logits(m, v), d_logits(m, v);
    for (int t = 0; t < pass.target_steps; ++t) {
      const auto& step = pass.steps[static_cast<size_t>(t)];
      const Eigen::Index row = static_cast<Eigen::Index>(t) * n_b + b;
      int attended = 0;
      for (size_t a = 0; a < step.attended.size(); ++a) {
        if (step.attended[a] != b) continue;
        ++attended;
        if (t < m) weights.row(t) = step.attention[a].weights.row(0);
      }
      if (t >= m) {
        // Past the pair's </s>: no attention, and the loss gives its padded step nothing.
        INFO(pair << ", padded step " << t);
        CHECK(attended == 0);
        CHECK(pass.d_logits.row(row).isZero(0));
        continue;
      }
      INFO(pair << ", step " << t);
      CHECK(attended == (attend ? 1 : 0));
      contexts.row(t) = step.context.row(b);
      states.row(t) = step.cell.h.row(b);
      outputs.row(t) = pass.output.y.row(row);
      logits.row(t) = all_logits.row(row);
      d_logits.row(t) = pass.d_logits.row(row);
    }
    if (attend)
      compare.check(pair + ": attention weights", weights, numbers(expected.at("attention")));
    compare.check(pair + ": contexts c_t", contexts, numbers(expected.at("contexts")));
    compare.check(pair + ": decoder states s_t", states, numbers(expected.at("decoderStates")));
    compare.check(pair + ": outputs o_t", outputs, numbers(expected.at("outputs")));
    compare.check(pair + ": logits", logits, numbers(expected.at("logits")));
    compare.check(pair + ": dL/dlogits", d_logits, numbers(expected.at("dLogits")));
  }
  const double loss = f.at("loss").get<double>();
  const double loss_error = std::abs(static_cast<double>(pass.loss) - loss) / loss;
  INFO(attn::bridge_name(bridge) << ": loss " << pass.loss << ", PyTorch " << loss);
  CHECK(loss_error < tolerance);
}

// Greedy translations of one bridge: the same words, weights and log-probability.
template <typename T>
void check_translations(attn::Bridge bridge, double tolerance, double floor_share) {
  const auto model = reference_model<T>(bridge);
  Comparison compare{tolerance, floor_share};
  for (const json& expected : model_fixture(bridge).at("translations")) {
    const auto source = expected.at("source").get<std::vector<int>>();
    const int max_words = expected.at("maxWords").get<int>();
    const std::string what =
        std::string(attn::bridge_name(bridge)) + ", up to " + std::to_string(max_words) + " words";
    const attn::Translation out = model.translate(source, max_words);
    const auto words = expected.at("words").get<std::vector<int>>();
    INFO(what);
    REQUIRE(out.words == words);
    const Eigen::Index cols = bridge == attn::Bridge::attention ? source.size() : 0;
    REQUIRE(out.weights.rows() == static_cast<Eigen::Index>(words.size()) + 1);
    REQUIRE(out.weights.cols() == cols);
    compare.check(what + ": weights", out.weights, numbers(expected.at("weights")));
    const double log_p = expected.at("logProbability").get<double>();
    const double error =
        std::abs(static_cast<double>(out.log_probability) - log_p) / std::abs(log_p);
    INFO("log-probability " << out.log_probability << ", PyTorch " << log_p);
    CHECK(error < tolerance);
  }
}

}  // namespace

TEST_CASE("translator in double matches PyTorch within 1e-12 relative, entry by entry",
          "[translator-reference]") {
  for (const attn::Bridge bridge : {attn::Bridge::attention, attn::Bridge::fixed_vector}) {
    INFO(attn::bridge_name(bridge));
    check_forward<double>(bridge, 1e-12, 1e-2);
    check_translations<double>(bridge, 1e-7, 1e-2);
  }
}

TEST_CASE("translator in float matches PyTorch within 1e-5 of each matrix's largest entry",
          "[translator-reference]") {
  for (const attn::Bridge bridge : {attn::Bridge::attention, attn::Bridge::fixed_vector}) {
    INFO(attn::bridge_name(bridge));
    check_forward<float>(bridge, 1e-5, 1.0);
    check_translations<float>(bridge, 1e-5, 1.0);
  }
}
