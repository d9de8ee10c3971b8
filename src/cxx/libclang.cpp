// SPDX-License-Identifier: MIT
#include "torchmigrate/cxx/libclang.hpp"

namespace torchmigrate::cxx {

std::string take_string(CXString string) {
  const LibclangApi& api = libclang();
  const char* text = api.clang_getCString(string);
  std::string copy = text == nullptr ? std::string() : std::string(text);
  api.clang_disposeString(string);
  return copy;
}

CXIndex thread_index() {
  // Declarations from precompiled headers are not excluded; diagnostics are never printed.
  thread_local Index index(libclang().clang_createIndex(0, 0));
  return index.get();
}

TokenBuffer::TokenBuffer(CXTranslationUnit unit, CXSourceRange range) : unit_(unit) {
  libclang().clang_tokenize(unit, range, &tokens_, &count_);
}

TokenBuffer::~TokenBuffer() {
  if (tokens_ != nullptr) libclang().clang_disposeTokens(unit_, tokens_, count_);
}

TokenBuffer& TokenBuffer::operator=(TokenBuffer&& other) noexcept {
  if (this != &other) {
    if (tokens_ != nullptr) libclang().clang_disposeTokens(unit_, tokens_, count_);
    unit_ = std::exchange(other.unit_, nullptr);
    tokens_ = std::exchange(other.tokens_, nullptr);
    count_ = std::exchange(other.count_, 0);
  }
  return *this;
}

}  // namespace torchmigrate::cxx
