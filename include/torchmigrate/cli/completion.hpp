// SPDX-License-Identifier: MIT
// `torchmigrate completion bash|zsh|fish`: a shell completion script written from the command
// line's own definition, so it always offers exactly the subcommands and options that exist,
// with rule codes, formats and other fixed choices as values.
#pragma once

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>

namespace torchmigrate::engine {
class Catalog;
}

namespace torchmigrate::cli {

// Writes the script for `shell` ("bash", "zsh" or "fish").
void write_completion(const CLI::App& app, const engine::Catalog& catalog, const std::string& shell, std::ostream& out);

}  // namespace torchmigrate::cli
