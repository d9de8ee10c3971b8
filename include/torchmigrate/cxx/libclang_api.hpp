// SPDX-License-Identifier: MIT
// libclang, loaded with dlopen the first time a C/C++/CUDA file needs it: a run that checks
// only Python and build files (or prints --version) never maps libLLVM's 65 MB, and a machine
// without libclang still checks everything else. See docs/architecture.md.
#pragma once

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>

#include <string>
#include <vector>

// Every libclang function torchmigrate calls; the headers give each one's type.
#define TORCHMIGRATE_LIBCLANG_FUNCTIONS(X)        \
  X(clang_CompilationDatabase_dispose)            \
  X(clang_CompilationDatabase_fromDirectory)      \
  X(clang_CompilationDatabase_getCompileCommands) \
  X(clang_CompileCommand_getArg)                  \
  X(clang_CompileCommand_getDirectory)            \
  X(clang_CompileCommand_getNumArgs)              \
  X(clang_CompileCommands_dispose)                \
  X(clang_CompileCommands_getCommand)             \
  X(clang_CompileCommands_getSize)                \
  X(clang_Cursor_isNull)                          \
  X(clang_Location_isFromMainFile)                \
  X(clang_createIndex)                            \
  X(clang_disposeIndex)                           \
  X(clang_disposeSourceRangeList)                 \
  X(clang_disposeString)                          \
  X(clang_disposeTokens)                          \
  X(clang_disposeTranslationUnit)                 \
  X(clang_getCString)                             \
  X(clang_getCursor)                              \
  X(clang_getCursorKind)                          \
  X(clang_getCursorLocation)                      \
  X(clang_getCursorReferenced)                    \
  X(clang_getCursorSpelling)                      \
  X(clang_getFile)                                \
  X(clang_getFileLocation)                        \
  X(clang_getFileName)                            \
  X(clang_getInclusions)                          \
  X(clang_getLocationForOffset)                   \
  X(clang_getRange)                               \
  X(clang_getRangeEnd)                            \
  X(clang_getRangeStart)                          \
  X(clang_getSkippedRanges)                       \
  X(clang_getTokenExtent)                         \
  X(clang_getTokenKind)                           \
  X(clang_isDeclaration)                          \
  X(clang_isInvalid)                              \
  X(clang_isInvalidDeclaration)                   \
  X(clang_parseTranslationUnit2)                  \
  X(clang_tokenize)

namespace torchmigrate::cxx {

// One pointer per function, named as in the C API: `api.clang_createIndex(0, 0)`.
struct LibclangApi {
#define TORCHMIGRATE_LIBCLANG_POINTER(name) decltype(&::name) name = nullptr;
  TORCHMIGRATE_LIBCLANG_FUNCTIONS(TORCHMIGRATE_LIBCLANG_POINTER)
#undef TORCHMIGRATE_LIBCLANG_POINTER
};

struct LibclangLoad {
  LibclangApi api;     // every pointer set when `error` is empty
  std::string path;    // the candidate that loaded
  std::string error;   // why none did, for messages
  [[nodiscard]] bool loaded() const { return error.empty(); }
};

// Tries each file or library name in order (names go through the dynamic linker's search);
// the first that opens and exports every function wins. A loaded library is never unloaded:
// thread-local indexes and LLVM's static objects outlive any owner.
LibclangLoad load_libclang(const std::vector<std::string>& candidates);

// What the process tries: $TORCHMIGRATE_LIBCLANG alone when set, else the libclang found when
// torchmigrate was built (its SONAME, then its path), then the common versioned names.
std::vector<std::string> libclang_candidates();

// The process's libclang, loaded on the first call from any thread; nullptr when it cannot be
// loaded, and libclang_error() then says why.
const LibclangApi* try_libclang();
const std::string& libclang_error();

// The loaded libclang, for code that runs only after try_libclang() succeeded; throws
// std::logic_error otherwise.
const LibclangApi& libclang();

// The Debian package that provides the libclang torchmigrate was built against.
const char* libclang_package();

}  // namespace torchmigrate::cxx
