// SPDX-License-Identifier: MIT
// A rule's docs sections (what it does, why, the examples, fix safety, limitations, references)
// as text: the Markdown of `torchmigrate rule CODE` and docs/rules/*.md, and SARIF's help.
#pragma once

#include <string>

#include "torchmigrate/engine/catalog/catalog.hpp"

namespace torchmigrate::output {

// Where the Markdown goes; the two differ only in spacing, code block labels and references.
enum class DocsLayout {
  // A page (`torchmigrate rule CODE`, docs/rules/*.md): a blank line after each heading, code
  // blocks labelled from the example's file (cuda, dockerfile...), a build rule's example file
  // named, references as `id: URL`.
  Page,
  // SARIF's help.markdown: compact, code blocks labelled by language, references as links.
  Help,
};

// The sections from "## What it does" to the references, ending in a newline.
std::string rule_docs_markdown(const engine::RuleSpec& rule, DocsLayout layout);

// The same sections as plain text (code indented by four spaces), for SARIF's help.text.
std::string rule_docs_text(const engine::RuleSpec& rule);

}  // namespace torchmigrate::output
