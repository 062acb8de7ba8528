#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "attn/seq2seq.hpp"
#include "gradient_check.hpp"

using attn::Bridge;
using attn::Scoring;

namespace {

attn::ModelOptions small_model(Bridge kind, Scoring scoring) {
  attn::ModelOptions o;
  o.kind = kind;
  o.scoring = scoring;
  o.d_model = 6;
  o.d_k = 5;
  o.vocab = 4;
  o.seed = 77;
  return o;
}

// Three sequences of different lengths, so that two of them are padded.
attn::ReversalBatch padded_batch() {
  attn::ReversalBatch batch;
  batch.size = 3;
  batch.max_length = 5;
  batch.lengths = {5, 2, 3};
  batch.inputs = {1, 3, 3, 2, 4, /**/ 2, 1, 0, 0, 0, /**/ 4, 4, 1, 0, 0};
  batch.targets = {4, 2, 3, 3, 1, /**/ 1, 2, 0, 0, 0, /**/ 1, 4, 4, 0, 0};
  return batch;
}

std::string describe(const attn::ModelOptions& o) {
  return o.kind == Bridge::fixed_vector
             ? "fixed-vector model"
             : std::string("attention model, ") + attn::scoring_name(o.scoring) + " scoring";
}

// dL/d(every parameter) of the whole model's loss on a padded batch, against central differences.
void check_model_gradients(const attn::ModelOptions& options) {
  INFO(describe(options));
  attn::Seq2Seq<double> model(options);
  const attn::ReversalBatch batch = padded_batch();
  model.zero_grad();
  model.backward(model.forward(batch));
  for (attn::Parameter<double>* p : model.parameters()) {
    const test::MatD analytic = p->grad;
    test::check_gradient("dL/d" + p->name, p->value, analytic,
                         [&] { return model.forward(batch).loss; });
    if (p->name == "E") {
      // Row 0 is padding: never read, never trained. Symbol 4 is read, so its row moves.
      CHECK(analytic.row(0).isZero(0));
      CHECK_FALSE(analytic.row(4).isZero(0));
    }
  }
}

}  // namespace

TEST_CASE("fixed-vector model: dL/d(every parameter) matches central differences", "[seq2seq]") {
  check_model_gradients(small_model(Bridge::fixed_vector, Scoring::scaled_dot));
}

TEST_CASE("attention model, scaled dot: dL/d(every parameter) matches central differences",
          "[seq2seq]") {
  check_model_gradients(small_model(Bridge::attention, Scoring::scaled_dot));
}

TEST_CASE("attention model, dot: dL/d(every parameter) matches central differences", "[seq2seq]") {
  check_model_gradients(small_model(Bridge::attention, Scoring::dot));
}

TEST_CASE("attention model, additive: dL/d(every parameter) matches central differences",
          "[seq2seq]") {
  check_model_gradients(small_model(Bridge::attention, Scoring::additive));
}

TEST_CASE("the models hold the parameters their formulas name", "[seq2seq]") {
  const auto names = [](attn::Seq2Seq<float>& model) {
    std::vector<std::string> list;
    for (const auto* p : model.parameters()) list.push_back(p->name);
    return list;
  };
  attn::Seq2Seq<float> fixed(small_model(Bridge::fixed_vector, Scoring::dot));
  attn::Seq2Seq<float> dot(small_model(Bridge::attention, Scoring::dot));
  attn::Seq2Seq<float> additive(small_model(Bridge::attention, Scoring::additive));
  using List = std::vector<std::string>;
  CHECK(names(fixed) == List{"E", "W_e", "b_e", "W_c", "b_c", "W_d", "b_d", "W_o", "b_o"});
  CHECK(names(dot) == List{"E", "W_e", "b_e", "W_q", "W_k", "W_v", "W_d", "b_d", "W_o", "b_o"});
  CHECK(names(additive) ==
        List{"E", "W_e", "b_e", "W_q", "W_k", "W_v", "w_score", "W_d", "b_d", "W_o", "b_o"});
}

TEST_CASE("padded positions change nothing: each sequence's loss is its own", "[seq2seq]") {
  // A sequence scored alone, unpadded, gives the same per-step predictions and the same
  // attention weights over its real positions as inside a padded batch.
  attn::Seq2Seq<double> model(small_model(Bridge::attention, Scoring::scaled_dot));
  const attn::ReversalBatch batch = padded_batch();
  const auto together = model.forward(batch);
  attn::ReversalBatch alone;
  alone.size = 1;
  alone.max_length = 2;
  alone.lengths = {2};
  alone.inputs = {2, 1};
  alone.targets = {1, 2};
  const auto single = model.forward(alone);
  const auto& w = together.attention[1].weights;  // (5, 5), real block (2, 2)
  CHECK(w.block(0, 0, 2, 2).isApprox(single.attention[0].weights, 1e-12));
  CHECK(w.block(0, 2, 5, 3).isZero(0));
  CHECK(together.predictions[5] == single.predictions[0]);
  CHECK(together.predictions[6] == single.predictions[1]);
  CHECK(together.predictions[7] == attn::kPaddingSymbol);
}

TEST_CASE("float and double models start alike and compute the same loss", "[seq2seq]") {
  for (const Bridge kind : {Bridge::fixed_vector, Bridge::attention}) {
    for (const Scoring scoring : {Scoring::additive, Scoring::dot, Scoring::scaled_dot}) {
      auto options = small_model(kind, scoring);
      options.d_model = 16;
      attn::Seq2Seq<float> single(options);
      attn::Seq2Seq<double> twice(options);
      INFO(describe(options));
      const double a = single.forward(padded_batch()).loss;
      const double b = twice.forward(padded_batch()).loss;
      CHECK(a == Approx(b).epsilon(1e-5));
    }
  }
}

TEST_CASE("the models refuse settings and batches out of range", "[seq2seq]") {
  auto options = small_model(Bridge::attention, Scoring::dot);
  options.d_model = 1;
  CHECK_THROWS_WITH(attn::Seq2Seq<float>(options),
                    Catch::Contains("d_model must be between 2 and 256, got 1"));
  options = small_model(Bridge::attention, Scoring::dot);
  options.vocab = 65;
  CHECK_THROWS_WITH(attn::Seq2Seq<float>(options),
                    Catch::Contains("vocab must be between 2 and 64"));
  attn::Seq2Seq<float> model(small_model(Bridge::attention, Scoring::dot));
  attn::ReversalBatch batch = padded_batch();
  batch.targets[0] = 9;
  CHECK_THROWS_WITH(model.forward(batch), Catch::Contains("the batch holds symbol 9"));
  batch = padded_batch();
  batch.inputs[1] = 5;
  CHECK_THROWS_WITH(model.forward(batch),
                    Catch::Contains("input 1 of sequence 0 is 5; it must be a symbol 1 to vocab"));
}

TEST_CASE("the models refuse a batch whose parts do not hold together", "[seq2seq]") {
  // Found by the fuzzer (tests/fuzz): the forward pass trusted a batch's lengths and sizes and
  // read and wrote past the end of its buffers when they disagreed.
  for (const Bridge kind : {Bridge::attention, Bridge::fixed_vector}) {
    attn::Seq2Seq<float> model(small_model(kind, Scoring::dot));
    const auto refuses = [&](void (*spoil)(attn::ReversalBatch&), const char* message) {
      attn::ReversalBatch batch = padded_batch();
      spoil(batch);
      CHECK_THROWS_WITH(model.forward(batch), Catch::Contains(message));
    };
    refuses([](attn::ReversalBatch& b) { b.lengths[1] = 6; }, "sequence 1 has length 6");
    refuses([](attn::ReversalBatch& b) { b.lengths[2] = 0; }, "sequence 2 has length 0");
    refuses([](attn::ReversalBatch& b) { b.lengths[0] = -3; }, "sequence 0 has length -3");
    refuses([](attn::ReversalBatch& b) { b.lengths.pop_back(); }, "needs 3 lengths");
    refuses([](attn::ReversalBatch& b) { b.size = 4; }, "needs 4 lengths and 20 inputs");
    refuses([](attn::ReversalBatch& b) { b.inputs.pop_back(); }, "got 3, 14 and 15");
    refuses([](attn::ReversalBatch& b) { b.targets.push_back(0); }, "got 3, 15 and 16");
    refuses([](attn::ReversalBatch& b) { b.inputs[7] = 2; },
            "input 2 of sequence 1 is 2; it must be padding (0)");
    refuses([](attn::ReversalBatch& b) { b.inputs[5] = 0; },
            "input 0 of sequence 1 is 0; it must be a symbol");
    CHECK_NOTHROW(model.forward(padded_batch()));
  }
}
