// Whole files as bytes, for the native tools and benchmarks (the core does no I/O).
#pragma once

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace attn::tools {

// -> the file's bytes. Throws std::runtime_error naming the path when it cannot be opened or read.
inline std::vector<std::uint8_t> read_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  std::vector<std::uint8_t> bytes;
  std::uint8_t buffer[1 << 16];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0) {
    bytes.insert(bytes.end(), buffer, buffer + got);
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw std::runtime_error("cannot read " + path);
  return bytes;
}

// Writes size bytes to path, replacing the file. Throws std::runtime_error naming the path when it
// cannot be written (its folder must exist).
inline void write_file(const std::string& path, const void* data, std::size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + path + " (does its folder exist?)");
  const bool ok = std::fwrite(data, 1, size, f) == size;
  if (std::fclose(f) != 0 || !ok) throw std::runtime_error("cannot write " + path);
}

inline void write_file(const std::string& path, const std::string& text) {
  write_file(path, text.data(), text.size());
}

inline void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  write_file(path, bytes.data(), bytes.size());
}

}  // namespace attn::tools
