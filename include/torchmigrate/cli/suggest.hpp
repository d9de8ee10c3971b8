// SPDX-License-Identifier: MIT
// "Did you mean": the known name closest to a mistyped one, for unknown subcommands and options.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchmigrate::cli {

// The candidate closest to `typed` by edit distance, if it is close enough to be a typo.
std::optional<std::string> closest_name(std::string_view typed, const std::vector<std::string>& candidates);

// Reports an unknown subcommand or option before CLI11 does (CLI11 says only "A subcommand is
// required" or "argument was not expected"), with a suggestion; returns true when it did.
bool report_unknown_words(const CLI::App& app, int argc, const char* const* argv, std::ostream& err);

}  // namespace torchmigrate::cli
