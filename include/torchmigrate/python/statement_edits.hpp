// SPDX-License-Identifier: MIT
// Text edits that remove a statement or a list element without leaving broken syntax behind:
// line arithmetic on the source, comma-separated sequences, statements alone on their line.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "torchmigrate/core/fix.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::python {

// Only spaces, tabs and carriage returns.
bool is_blank(std::string_view text);
// Offset of the first byte of the line holding `offset`.
uint32_t line_start(std::string_view source, uint32_t offset);
// Offset just past the newline that ends the line holding `offset` (or the end of the text).
uint32_t next_line_start(std::string_view source, uint32_t offset);
// True when only blanks (and optionally a comment) follow `offset` on its line.
bool rest_of_line_is_empty(std::string_view source, uint32_t offset);
// "\r\n" when the file's first line ends that way, else "\n".
std::string_view newline_of(std::string_view source);

// The statements of a block or module, comments left out.
std::vector<Node> statements_of(Node block);

// Removes `item` from a comma-separated sequence of siblings with the comma that separates it.
Edit remove_from_sequence(const std::vector<Node>& items, Node item);
// Removes the lines [from, to) of `*self` with an edit that also spans a neighbouring item,
// kept verbatim, so that two such removals never apply in the same pass: a block can then never
// be left empty (the next pass sees the smaller container and removes it whole).
Edit remove_lines_spanning_neighbour(std::string_view source, const std::vector<Node>& items,
                                     std::vector<Node>::const_iterator self, uint32_t from, uint32_t to);
// Removes a simple statement; a block left empty gets `pass`. nullopt when the statement shares
// its line with code the edit cannot separate.
std::optional<Edit> remove_statement(Node statement);
// remove_statement, and with the statement the comment lines directly above it (at its
// indentation, nothing between) that are about it: when comments and statement make a paragraph
// of their own (blank lines, the block's start or its end around them), or when the comments name
// `subject` (the setting the statement makes). A comment above a group of statements stays. Blank
// lines the removal would double up are taken too.
std::optional<Edit> remove_statement_and_comments(Node statement, std::string_view subject);

}  // namespace torchmigrate::python
