// Little-endian reads and writes of the core's binary files, whatever the host's byte order.
// Private to src/.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace attn::detail {

inline std::uint32_t read_u32(const std::uint8_t* at) {
  return static_cast<std::uint32_t>(at[0]) | static_cast<std::uint32_t>(at[1]) << 8 |
         static_cast<std::uint32_t>(at[2]) << 16 | static_cast<std::uint32_t>(at[3]) << 24;
}

inline int read_u16(const std::uint8_t* at) { return at[0] | at[1] << 8; }

inline float read_f32(const std::uint8_t* at) {
  const std::uint32_t bits = read_u32(at);
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

inline void put_u32(std::vector<std::uint8_t>& out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

inline void put_f32(std::vector<std::uint8_t>& out, float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  put_u32(out, bits);
}

}  // namespace attn::detail
