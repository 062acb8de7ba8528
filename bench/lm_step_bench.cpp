// Native benchmark of one training step of attn::LanguageModel at the shape of the planned
// Brown Corpus model: vocab 20,058 (random frozen 100-d word vectors), d_model 128, 2 layers x
// 4 heads, d_mlp 512, context 64, batches of 32 full-length sequences. A step is what training
// does: zero the gradients, forward, softmax cross-entropy on the next tokens, backward, clip the
// global norm to 1, one Adam step (lr 3e-3).
//
// Also timed on their own: the batch's forward pass and loss (model.loss), the tied output
// layer's two products for the batch, (B n, 100) x (100, vocab) forward and (B n, vocab) x
// (vocab, 100) backward, and the softmax cross-entropy of the (B n, vocab) logits; and one
// 64-token forward pass with logits for every position and for the last only.
//
// Each is run once to warm up, then `steps` times (default 5); the medians of wall time and of
// the thread's processor time (what a shared machine does not inflate) are reported, and the
// full run of 2,500 steps projected from the step's median. Last, two fresh models from the same
// seed train two steps each and must end with the same bits (exit code 1 otherwise). Output: one
// JSON object on stdout.
// Usage: attn_lm_bench [STEPS]
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

#include "attn/adam.hpp"
#include "attn/language_model.hpp"
#include "attn/loss.hpp"
#include "attn/random.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using Mat = attn::MatrixT<float>;

constexpr int kVocab = 20058, kBatch = 32, kContext = 64, kRunSteps = 2500;

// This thread's processor time in seconds: unlike wall time, it does not count the time other
// processes on a shared machine take from it.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Timing {
  double wall, cpu;  // medians, seconds
};

// Median wall and processor seconds of `runs` calls after one warm-up call.
template <typename Call>
Timing median_seconds(int runs, Call&& call) {
  call();
  std::vector<double> wall, cpu;
  for (int i = 0; i < runs; ++i) {
    const auto start = Clock::now();
    const double cpu_start = cpu_seconds();
    call();
    cpu.push_back(cpu_seconds() - cpu_start);
    wall.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

void print(const char* name, const Timing& t, bool last = false) {
  std::printf("\"%s\": {\"wallMs\": %.2f, \"cpuMs\": %.2f}%s", name, t.wall * 1e3, t.cpu * 1e3,
              last ? "" : ", ");
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 5;
  if (argc > 2 || runs < 1) {
    std::fprintf(stderr, "usage: %s [STEPS >= 1]\n", argv[0]);
    return 2;
  }
  try {
    // vocab, d_embed, d_model, layers, heads, d_mlp, context, seed, position_scale
    const attn::LanguageModelConfig config{kVocab, 100, 128, 2, 4, 512, kContext, 1, 0.2f};
    const Mat word_vectors = attn::unit_normal(kVocab, 100, 11) * 0.4f;
    attn::LanguageModel<float> model(config, word_vectors);
    attn::Adam<float> adam(model.parameters(), attn::AdamOptions{});

    // A batch of random token ids; each position's target is the next token.
    attn::Rng rng(12);
    std::vector<std::vector<int>> inputs(kBatch), targets(kBatch);
    for (int s = 0; s < kBatch; ++s) {
      std::vector<int> ids(kContext + 1);
      for (int& id : ids) id = static_cast<int>(rng.next_u32() % kVocab);
      inputs[s].assign(ids.begin(), ids.end() - 1);
      targets[s].assign(ids.begin() + 1, ids.end());
    }

    float loss = 0;
    const Timing step = median_seconds(runs, [&] {
      model.zero_grad();
      loss = model.loss_and_backward(inputs, targets);
      attn::clip_global_norm(model.parameters(), 1.0f);
      adam.step();
    });
    const float last_loss = loss;
    const Timing forward = median_seconds(runs, [&] { loss = model.loss(inputs, targets); });

    // The tied output layer alone, for the whole batch at once.
    const Mat z = attn::unit_normal(kBatch * kContext, 100, 13);
    Mat logits(kBatch * kContext, kVocab), dz(kBatch * kContext, 100);
    const Timing output_forward =
        median_seconds(runs, [&] { logits.noalias() = z * word_vectors.transpose(); });
    const Timing output_backward =
        median_seconds(runs, [&] { dz.noalias() = logits * word_vectors; });
    std::vector<int> flat_targets;
    for (const auto& t : targets) flat_targets.insert(flat_targets.end(), t.begin(), t.end());
    Mat scratch = logits;
    int counted = 0;
    const Timing cross_entropy = median_seconds(runs, [&] {
      scratch = logits;
      attn::softmax_cross_entropy_in_place(scratch, flat_targets, 1.0f, &counted);
    });
    const Timing copy = median_seconds(runs, [&] { scratch = logits; });

    const std::vector<int> sequence = inputs[0];
    const Timing forward_all = median_seconds(runs, [&] { model.forward(sequence); });
    const Timing forward_last =
        median_seconds(runs, [&] { model.forward(sequence, attn::LogitRows::last_position); });

    // Reproducibility: two fresh models from the same seed, two steps each, must end with the
    // same bits in every parameter.
    const auto two_steps = [&] {
      attn::LanguageModel<float> fresh(config, word_vectors);
      attn::Adam<float> fresh_adam(fresh.parameters(), attn::AdamOptions{});
      for (int i = 0; i < 2; ++i) {
        fresh.zero_grad();
        fresh.loss_and_backward(inputs, targets);
        attn::clip_global_norm(fresh.parameters(), 1.0f);
        fresh_adam.step();
      }
      std::vector<float> values;
      for (const auto* p : fresh.parameters()) {
        values.insert(values.end(), p->value.data(), p->value.data() + p->value.size());
      }
      return values;
    };
    const std::vector<float> first = two_steps(), second = two_steps();
    const bool same_bits =
        first.size() == second.size() &&
        std::memcmp(first.data(), second.data(), first.size() * sizeof(float)) == 0;

    const double gflop = 2.0 * kBatch * kContext * 100.0 * kVocab / 1e9;
    std::printf(
        "{\"impl\": \"native-lm-step\", \"vocab\": %d, \"dModel\": 128, \"layers\": 2, "
        "\"heads\": 4, \"dMlp\": 512, \"context\": %d, \"batch\": %d, \"runs\": %d, ",
        kVocab, kContext, kBatch, runs);
    print("step", step);
    print("forwardAndLoss", forward);
    print("outputForwardProduct", output_forward);
    print("outputBackwardProduct", output_backward);
    print("crossEntropyInPlace", cross_entropy);
    print("copyOfLogits", copy);
    print("forward64Every", forward_all);
    print("forward64Last", forward_last);
    std::printf(
        "\"outputProductGflopsCpu\": %.1f, \"projectedMinutesFor%dStepsWall\": %.1f, "
        "\"projectedMinutesFor%dStepsCpu\": %.1f, \"loss\": %.4f, \"sameBitsFromSeed\": %s}\n",
        gflop / output_forward.cpu, kRunSteps, step.wall * kRunSteps / 60.0, kRunSteps,
        step.cpu * kRunSteps / 60.0, last_loss, same_bits ? "true" : "false");
    if (!same_bits) {
      std::fprintf(stderr, "attn_lm_bench: two runs from the same seed differ\n");
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attn_lm_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
