// Catch2's main() in a file of its own, compiled once.
#define CATCH_CONFIG_MAIN
// Catch2's implementation includes libstdc++'s <regex>, in which gcc 12 at -O1 (the native-debug
// preset) reports -Wmaybe-uninitialized on std::function moves inside the regex compiler: a
// warning about the library's code, silenced for this include only. Clang has no such warning.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <catch2/catch.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
