// SPDX-License-Identifier: MIT
// Which DLPack a C/C++/CUDA file compiles against: torch's `ATen/dlpack.h` or a DLPack of the
// project's own (a vendored header, a submodule, a system package). Only torch's is changed by
// a torch upgrade.
#pragma once

#include <string>
#include <string_view>

#include "torchmigrate/cxx/source_scan.hpp"

namespace torchmigrate::cxx {

enum class DlpackOrigin { Torch, Own };

struct DlpackDecision {
  DlpackOrigin origin = DlpackOrigin::Torch;
  std::string reason;  // for messages: "it includes `ATen/dlpack.h`"
};

// Whether `path` ends with the path components `tail` (`x/ATen/dlpack.h` ends with `ATen/dlpack.h`).
bool ends_with_components(std::string_view path, std::string_view tail);
// `ATen/dlpack.h`, or `ATen/DLConvertor.h` which includes it: torch's copy of DLPack.
bool is_torch_dlpack_header(std::string_view path);
// Any header named `dlpack.h` (`dlpack/dlpack.h`, `"dlpack.h"`, torch's included).
bool is_dlpack_header(std::string_view path);

// Decides from the headers the compile database's parse opened, else from the file's own
// #include lines, else from whether the project ships a DLPack of its own.
DlpackDecision dlpack_origin(const SourceScan& scan, bool project_ships_dlpack, std::string_view project_evidence);

}  // namespace torchmigrate::cxx
