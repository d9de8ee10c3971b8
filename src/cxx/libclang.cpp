// SPDX-License-Identifier: MIT
#include "torchmigrate/cxx/libclang.hpp"

namespace torchmigrate::cxx {

std::string take_string(CXString string) {
  const char* text = clang_getCString(string);
  std::string copy = text == nullptr ? std::string() : std::string(text);
  clang_disposeString(string);
  return copy;
}

CXIndex thread_index() {
  // Declarations from precompiled headers are not excluded; diagnostics are never printed.
  thread_local Index index(clang_createIndex(0, 0));
  return index.get();
}

TokenBuffer::TokenBuffer(CXTranslationUnit unit, CXSourceRange range) : unit_(unit) {
  clang_tokenize(unit, range, &tokens_, &count_);
}

TokenBuffer::~TokenBuffer() {
  if (tokens_ != nullptr) clang_disposeTokens(unit_, tokens_, count_);
}

TokenBuffer& TokenBuffer::operator=(TokenBuffer&& other) noexcept {
  if (this != &other) {
    if (tokens_ != nullptr) clang_disposeTokens(unit_, tokens_, count_);
    unit_ = std::exchange(other.unit_, nullptr);
    tokens_ = std::exchange(other.tokens_, nullptr);
    count_ = std::exchange(other.count_, 0);
  }
  return *this;
}

}  // namespace torchmigrate::cxx
