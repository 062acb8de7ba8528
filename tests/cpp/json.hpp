// A small JSON reader for the golden fixtures the tests embed (tests/fixtures/*.json): objects,
// arrays, numbers, strings without escapes beyond \" and \\, true, false, null. Enough for the
// files tools/make_lm_fixture.py writes; throws std::runtime_error on anything else.
#pragma once

#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace test::json {

struct Value {
  enum class Kind { null, boolean, number, string, array, object } kind = Kind::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Value> array;
  std::map<std::string, Value> object;

  const Value& operator[](const std::string& key) const {
    const auto it = object.find(key);
    if (kind != Kind::object || it == object.end()) {
      throw std::runtime_error("json: no key \"" + key + "\"");
    }
    return it->second;
  }
  const Value& operator[](size_t i) const { return array.at(i); }
  size_t size() const { return kind == Kind::object ? object.size() : array.size(); }
  int as_int() const { return static_cast<int>(number); }
  std::vector<double> numbers() const {
    std::vector<double> out;
    out.reserve(array.size());
    for (const Value& v : array) out.push_back(v.number);
    return out;
  }
  std::vector<int> ints() const {
    std::vector<int> out;
    for (const Value& v : array) out.push_back(v.as_int());
    return out;
  }
};

class Parser {
 public:
  explicit Parser(const char* text) : p_(text) {}

  Value parse() {
    Value v = value();
    space();
    if (*p_ != '\0') fail("text after the document");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("json: " + what + " near \"" + std::string(p_).substr(0, 20) + "\"");
  }
  void space() {
    while (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t') ++p_;
  }
  bool literal(const char* word) {
    const size_t n = std::char_traits<char>::length(word);
    if (std::string(p_).compare(0, n, word) != 0) return false;
    p_ += n;
    return true;
  }
  std::string string() {
    if (*p_ != '"') fail("expected a string");
    ++p_;
    std::string s;
    while (*p_ != '"') {
      if (*p_ == '\0') fail("unterminated string");
      if (*p_ == '\\') ++p_;
      s += *p_++;
    }
    ++p_;
    return s;
  }
  Value value() {
    space();
    Value v;
    if (*p_ == '{') {
      v.kind = Value::Kind::object;
      ++p_;
      space();
      if (*p_ == '}') return ++p_, v;
      for (;;) {
        space();
        std::string key = string();
        space();
        if (*p_++ != ':') fail("expected ':'");
        v.object.emplace(std::move(key), value());
        space();
        if (*p_ == ',') {
          ++p_;
          continue;
        }
        if (*p_++ != '}') fail("expected ',' or '}'");
        return v;
      }
    }
    if (*p_ == '[') {
      v.kind = Value::Kind::array;
      ++p_;
      space();
      if (*p_ == ']') return ++p_, v;
      for (;;) {
        v.array.push_back(value());
        space();
        if (*p_ == ',') {
          ++p_;
          continue;
        }
        if (*p_++ != ']') fail("expected ',' or ']'");
        return v;
      }
    }
    if (*p_ == '"') {
      v.kind = Value::Kind::string;
      v.string = string();
      return v;
    }
    if (literal("true")) {
      v.kind = Value::Kind::boolean;
      v.boolean = true;
      return v;
    }
    if (literal("false")) {
      v.kind = Value::Kind::boolean;
      return v;
    }
    if (literal("null")) return v;
    char* end = nullptr;
    v.number = std::strtod(p_, &end);
    if (end == p_) fail("expected a value");
    v.kind = Value::Kind::number;
    p_ = end;
    return v;
  }

  const char* p_;
};

inline Value parse(const char* text) { return Parser(text).parse(); }

}  // namespace test::json
