// Catch2's main() in a file of its own, compiled once.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
