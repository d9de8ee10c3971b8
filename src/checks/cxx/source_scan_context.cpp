// SPDX-License-Identifier: MIT
// The per-file token scan shared by the C/C++/CUDA checks through FileCheckContext.
#include "torchmigrate/checks/cxx_checks.hpp"

#include "torchmigrate/cxx/libclang_api.hpp"
#include "torchmigrate/cxx/libclang_note.hpp"

namespace torchmigrate::checks {

const cxx::SourceScan& source_scan(engine::FileCheckContext& context) {
  return context.shared<cxx::SourceScan>([&context] {
    // Made once per file, so the file gets one note however many checks ask.
    if (cxx::try_libclang() == nullptr) context.note(cxx::libclang_missing_note());
    cxx::ScanOptions options;
    options.compile_database_dir = context.settings().compile_database_dir;
    return cxx::SourceScan::scan(context.file(), options);
  });
}

}  // namespace torchmigrate::checks
