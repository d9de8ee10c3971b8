// SPDX-License-Identifier: MIT
// Move-only RAII owners of the libclang handles torchmigrate uses: the index, a translation
// unit, a token buffer and a compilation database. Nothing here knows about rules. Every
// call goes through the loaded libclang (libclang_api.hpp).
#pragma once

#include <string>
#include <utility>

#include "torchmigrate/cxx/libclang_api.hpp"

namespace torchmigrate::cxx {

// Copies a CXString out and disposes it.
std::string take_string(CXString string);

// `Dispose` is the LibclangApi member that frees a Handle.
template <typename Handle, auto Dispose>
class Owned {
 public:
  Owned() = default;
  explicit Owned(Handle handle) : handle_(handle) {}
  ~Owned() { reset(); }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Owned(Owned&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Owned& operator=(Owned&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }

  [[nodiscard]] Handle get() const { return handle_; }
  explicit operator bool() const { return handle_ != nullptr; }
  void reset() {
    if (handle_ != nullptr) (libclang().*Dispose)(handle_);
    handle_ = nullptr;
  }

 private:
  Handle handle_ = nullptr;
};

using Index = Owned<CXIndex, &LibclangApi::clang_disposeIndex>;
using TranslationUnit = Owned<CXTranslationUnit, &LibclangApi::clang_disposeTranslationUnit>;
using CompilationDatabase = Owned<CXCompilationDatabase, &LibclangApi::clang_CompilationDatabase_dispose>;
using CompileCommands = Owned<CXCompileCommands, &LibclangApi::clang_CompileCommands_dispose>;

// The index of the calling thread, created on first use and reused for every parse on that
// thread (libclang indexes are not meant to be shared between threads).
CXIndex thread_index();

// The tokens of one clang_tokenize call; they stay valid while their translation unit lives.
class TokenBuffer {
 public:
  TokenBuffer() = default;
  TokenBuffer(CXTranslationUnit unit, CXSourceRange range);
  ~TokenBuffer();
  TokenBuffer(const TokenBuffer&) = delete;
  TokenBuffer& operator=(const TokenBuffer&) = delete;
  TokenBuffer(TokenBuffer&& other) noexcept
      : unit_(std::exchange(other.unit_, nullptr)),
        tokens_(std::exchange(other.tokens_, nullptr)),
        count_(std::exchange(other.count_, 0)) {}
  TokenBuffer& operator=(TokenBuffer&& other) noexcept;

  [[nodiscard]] unsigned size() const { return count_; }
  [[nodiscard]] const CXToken& operator[](unsigned i) const { return tokens_[i]; }

 private:
  CXTranslationUnit unit_ = nullptr;
  CXToken* tokens_ = nullptr;
  unsigned count_ = 0;
};

}  // namespace torchmigrate::cxx
