// Benchmark of the core's scaled dot-product attention, softmax(Q K^T / sqrt(d)) V, with
// n_q = n_k = n and d_k = d_v = d = 64 for n in {16, 64, 256, 1024}, natively (build/native) and
// in wasm under Node (build/wasm/attn_bench.cjs); rows are named for the platform, `native-` or
// `wasm-`. Measures the time per call of the core's attention, writing the full trace (scores,
// scaled, masked, weights, output), two ways:
//   <platform>-trace attn::scaled_dot_product_attention  into new matrices every call
//   <platform>-fast  attn::attention_kernel              into buffers kept from call to call, as
//                    the engine's bindings call it
// and counts 4 n^2 d floating-point operations per call (2 n^2 d for Q K^T, 2 n^2 d for W V).
//
// Timing: steady_clock; warm up, size a batch to about kBatchSeconds, then run batches until at
// least kMinSeconds have elapsed and at least kMinBatches batches ran; report the median of the
// per-call times of the batches. A checksum of every result is printed so that no call can be
// optimised away.
//
// Then training: steps per second of attn::Trainer with its default options (the reversal task,
// lengths 2 to 12, batches of 32, d_model 32), for the attention model and the fixed-vector model,
// timed the same way with one training step as the call.
//
// Output: one JSON object a line on stdout, {impl, n, d, usPerCall, gflops, calls} for attention
// and {impl: "<platform>-train", model, usPerStep, stepsPerSecond, steps} for training, for
// bench/run.js; a human note (compiler, checksum) on stderr. Usage: attn_bench [MIN_SECONDS]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "attn/attention.hpp"
#include "attn/attention_grad.hpp"
#include "attn/random.hpp"
#include "attn/trainer.hpp"

namespace {

using Clock = std::chrono::steady_clock;

#if defined(__EMSCRIPTEN__)
#define ATTN_PLATFORM "wasm"
#else
#define ATTN_PLATFORM "native"
#endif

constexpr int kD = 64;
constexpr int kSizes[] = {16, 64, 256, 1024};
constexpr double kWarmupSeconds = 0.05;
constexpr int kWarmupCalls = 3;
constexpr int kMinBatches = 5;

double g_min_seconds = 0.3;  // per implementation and size; the first argument overrides it

// Folded into after every call and printed at the end, so the calls have a visible effect.
double g_checksum = 0.0;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Timing {
  double seconds_per_call;  // median over batches
  long calls;               // timed calls, warm-up excluded
};

// Times `call` (which returns a value to fold into the checksum) as described at the top.
template <typename Call>
Timing measure(Call&& call) {
  // Warm-up, which also gives a first estimate of the time per call.
  int warmup_calls = 0;
  const Clock::time_point warmup_start = Clock::now();
  while (warmup_calls < kWarmupCalls || seconds_since(warmup_start) < kWarmupSeconds) {
    g_checksum += call();
    ++warmup_calls;
  }
  const double estimate = seconds_since(warmup_start) / warmup_calls;
  const double batch_seconds = g_min_seconds / kMinBatches;
  const long per_batch = std::max(1L, static_cast<long>(std::ceil(batch_seconds / estimate)));

  std::vector<double> per_call;
  long calls = 0;
  const Clock::time_point start = Clock::now();
  while (static_cast<int>(per_call.size()) < kMinBatches || seconds_since(start) < g_min_seconds) {
    const Clock::time_point batch_start = Clock::now();
    for (long c = 0; c < per_batch; ++c) g_checksum += call();
    per_call.push_back(seconds_since(batch_start) / static_cast<double>(per_batch));
    calls += per_batch;
  }
  std::sort(per_call.begin(), per_call.end());
  const size_t mid = per_call.size() / 2;
  const double median =
      per_call.size() % 2 == 1 ? per_call[mid] : 0.5 * (per_call[mid - 1] + per_call[mid]);
  return {median, calls};
}

// A value that depends on every output of the trace without costing much: one entry of each.
double fold(const attn::AttentionTrace& trace) {
  const Eigen::Index last = trace.weights.rows() - 1;
  return trace.scores(0, 0) + trace.weights(last, last) + trace.output(last, 0);
}

void print_result(const char* impl, int n, const Timing& timing) {
  const double flops = 4.0 * n * n * kD;
  std::printf(
      "{\"impl\":\"%s\",\"n\":%d,\"d\":%d,\"usPerCall\":%.6g,\"gflops\":%.6g,\"calls\":%ld}\n",
      impl, n, kD, timing.seconds_per_call * 1e6, flops / timing.seconds_per_call * 1e-9,
      timing.calls);
  std::fflush(stdout);
}

// Training steps of the default model of one kind; the losses feed the checksum.
void bench_training(attn::Bridge model) {
  attn::TrainingOptions options;
  options.model = model;
  attn::Trainer trainer(options);
  const Timing timing = measure([&] { return static_cast<double>(trainer.step(1)[0]); });
  std::printf("{\"impl\":\"" ATTN_PLATFORM
              "-train\",\"model\":\"%s\",\"usPerStep\":%.6g,\"stepsPerSecond\":%.6g,"
              "\"steps\":%ld}\n",
              attn::model_name(model), timing.seconds_per_call * 1e6, 1.0 / timing.seconds_per_call,
              timing.calls);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2 || (argc == 2 && !(std::atof(argv[1]) > 0))) {
    std::fprintf(stderr, "usage: %s [MIN_SECONDS > 0]\n", argv[0]);
    return 2;
  }
  if (argc == 2) g_min_seconds = std::atof(argv[1]);
  try {
    for (const int n : kSizes) {
      // The same seeds as bench/run.js uses through the engine, so all three see the same inputs.
      const attn::Matrix q = attn::unit_normal(n, kD, 1);  // (n, d)
      const attn::Matrix k = attn::unit_normal(n, kD, 2);  // (n, d)
      const attn::Matrix v = attn::unit_normal(n, kD, 3);  // (n, d)

      // Benchmark only what agrees with the same attention computed in double precision.
      const attn::AttentionTrace trace = attn::scaled_dot_product_attention(q, k, v);
      const attn::AttentionPass<double> exact = attn::attention_forward<double>(
          q.cast<double>(), k.cast<double>(), v.cast<double>(), {}, nullptr);
      const double output_diff = (trace.output.cast<double>() - exact.output).cwiseAbs().maxCoeff();
      const double weight_diff =
          (trace.weights.cast<double>() - exact.weights).cwiseAbs().maxCoeff();
      if (!(output_diff <= 1e-4 && weight_diff <= 1e-4)) {
        std::fprintf(stderr,
                     "attn_bench: at n=%d attention disagrees with its double-precision twin (max "
                     "|diff| output %g, weights %g): not benchmarking a wrong result\n",
                     n, output_diff, weight_diff);
        return 1;
      }

      print_result(ATTN_PLATFORM "-trace", n,
                   measure([&] { return fold(attn::scaled_dot_product_attention(q, k, v)); }));
      attn::Matrix scores(n, n), scaled(n, n), masked(n, n), weights(n, n), output(n, kD);
      const attn::AttentionSizes sizes{n, n, kD, kD};
      std::vector<float> scratch(attn::attention_scratch_size(sizes));
      const attn::AttentionBuffers buffers{q.data(),       k.data(),      v.data(),
                                           scores.data(),  scaled.data(), masked.data(),
                                           weights.data(), output.data(), scratch.data()};
      print_result(ATTN_PLATFORM "-fast", n, measure([&] {
                     attn::attention_kernel(buffers, sizes, {});
                     return scores(0, 0) + weights(n - 1, n - 1) + output(n - 1, 0);
                   }));
    }
    bench_training(attn::Bridge::attention);
    bench_training(attn::Bridge::fixed_vector);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "attn_bench: %s\n", error.what());
    return 1;
  }
#if defined(__clang__)
  const char* compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
  const char* compiler = "gcc " __VERSION__;
#else
  const char* compiler = "unknown compiler";
#endif
  std::fprintf(stderr, "# attn_bench: %s, checksum %.9g\n", compiler, g_checksum);
  return 0;
}
