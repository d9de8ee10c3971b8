// SPDX-License-Identifier: MIT
// Findings about a project as a whole (its Python floor, a missing dependency) land once, on one
// line of one of its files that a project fact names (project_facts.hpp). These helpers tell a
// build-file check whether the file it checks holds that line, and where the line is.
#pragma once

#include <optional>
#include <string_view>

#include "torchmigrate/core/text_range.hpp"
#include "torchmigrate/engine/lint/file_check.hpp"

namespace torchmigrate::checks {

// Whether `line` lies in the checked file (compared by its place in the file's project).
[[nodiscard]] bool holds_line(const engine::FileCheckContext& context, const engine::ProjectLine& line);

// The 1-based `line` of the checked file without its indentation and line end; nullopt when the
// file has fewer lines.
[[nodiscard]] std::optional<TextRange> trimmed_line(const SourceFile& file, uint32_t line);

// The requirement on `package` that starts on `line` of the checked file, else the trimmed line.
[[nodiscard]] std::optional<TextRange> requirement_or_line(engine::FileCheckContext& context, std::string_view package,
                                                           uint32_t line);

// Whether a specifier set admits some version at or above `release` ("2.9": 2.9.0 and later).
[[nodiscard]] bool admits_release(std::string_view specifier, std::string_view release);

}  // namespace torchmigrate::checks
