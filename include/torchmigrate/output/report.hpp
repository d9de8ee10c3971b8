// SPDX-License-Identifier: MIT
// What the output formats print: each file's findings, plus what the fixer did.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/catalog.hpp"
#include "torchmigrate/engine/settings.hpp"

namespace torchmigrate::output {

struct FileFindings {
  std::shared_ptr<const SourceFile> file;  // the text the findings' offsets refer to
  std::vector<Diagnostic> diagnostics;
};

struct Report {
  std::vector<FileFindings> files;  // sorted by path
  const engine::Catalog* catalog = nullptr;
  const engine::Settings* settings = nullptr;
  int fixed = 0;                    // fixes applied by --fix
  bool fix_mode = false;
};

enum class Format { Concise, Full, Json };

// Parses a --output-format value; throws std::invalid_argument listing the choices.
Format parse_format(std::string_view name);

void write_concise(const Report& report, std::ostream& out);
void write_full(const Report& report, std::ostream& out);
void write_json(const Report& report, std::ostream& out);
// The closing lines of the text formats: counts and how many more `--fix` could fix.
void write_summary(const Report& report, std::ostream& out);
void write(Format format, const Report& report, std::ostream& out);

// "[*] " when --fix (or --unsafe-fixes) would apply the diagnostic's fix.
bool fixable(const Diagnostic& diagnostic, const engine::Settings& settings);

}  // namespace torchmigrate::output
