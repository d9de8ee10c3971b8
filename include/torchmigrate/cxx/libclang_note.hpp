// SPDX-License-Identifier: MIT
// The note a C/C++/CUDA file gets instead of findings when libclang cannot be loaded. A run
// shows it once (engine::run_session keeps the first and counts the files it stands for), so a
// large C++ tree gets one line, in every output format, rather than one per file.
#pragma once

#include <cstddef>

#include "torchmigrate/core/diagnostic.hpp"

namespace torchmigrate::cxx {

// A TM900 note at the start of the file: why libclang could not be loaded and what to install.
Diagnostic libclang_missing_note();
bool is_libclang_missing_note(const Diagnostic& diagnostic);
// The note made to stand for `files` C/C++/CUDA files of a run.
void count_unchecked_files(Diagnostic& note, size_t files);

}  // namespace torchmigrate::cxx
