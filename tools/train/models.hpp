// The models attn_train trains (main.cpp), each a function taking the command line after the
// program's name: argv[0] is the model's name, the rest its flags. Each returns the exit code.
#pragma once

#include <cstdio>
#include <string>

namespace attn::tools {

int train_reversal(int argc, char** argv);
int train_language_model(int argc, char** argv);
int train_translation(int argc, char** argv);
int train_transformer(int argc, char** argv);

// `value` printed with a printf format, for the tools' JSON.
inline std::string formatted(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

}  // namespace attn::tools
