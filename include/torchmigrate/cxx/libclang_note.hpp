// SPDX-License-Identifier: MIT
// The note a C/C++/CUDA file gets instead of findings when libclang cannot be loaded. A run
// shows it once (engine::run_session keeps the first and counts the files it stands for), so a
// large C++ tree gets one line, in every output format, rather than one per file.
#pragma once

#include <cstddef>

#include "torchmigrate/core/diagnostic.hpp"

namespace torchmigrate::cxx {

// Whether libclang cannot be loaded (try_libclang() is null), for code without the clang-c
// headers: the C/C++ front then gives each file this note.
bool libclang_missing();
// A TM900 note at the start of the file: why libclang could not be loaded and what to install.
Diagnostic libclang_missing_note();
bool is_libclang_missing_note(const Diagnostic& diagnostic);
// The note made to stand for `files` C/C++/CUDA files of a run.
void count_unchecked_files(Diagnostic& note, size_t files);

}  // namespace torchmigrate::cxx
