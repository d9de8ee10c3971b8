// SPDX-License-Identifier: MIT
// "Did you mean": edit distance between what was typed and the names the parser knows.
#include "torchmigrate/cli/suggest.hpp"

#include <algorithm>
#include <ostream>

namespace torchmigrate::cli {
namespace {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  return names;
}

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

bool takes_value(const CLI::App& app, std::string_view word) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_expected_min() == 0) continue;
    for (const std::string& name : option->get_lnames()) {
      if (word == "--" + name) return true;
    }
    for (const std::string& name : option->get_snames()) {
      if (word == "-" + name) return true;
    }
  }
  return false;
}

void print_unknown(std::string_view what, std::string_view typed, const std::vector<std::string>& known,
                   std::ostream& err) {
  err << "torchmigrate: error: unknown " << what << " `" << typed << "`";
  if (auto suggestion = closest_name(typed, known)) err << "; did you mean `" << *suggestion << "`?";
  err << "\nRun with --help for more information.\n";
}

}  // namespace

std::optional<std::string> closest_name(std::string_view typed, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_distance = 0;
  for (const std::string& candidate : candidates) {
    size_t distance = edit_distance(typed, candidate);
    if (!best || distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  // A third of the length, at least 2: `chek` finds `check`, `--selct` finds `--select`, and a
  // word that shares little with every name gets no suggestion.
  size_t limit = std::max<size_t>(2, typed.size() / 3);
  if (!best || best_distance > limit) return std::nullopt;
  return best;
}

bool report_unknown_words(const CLI::App& app, int argc, const char* const* argv, std::ostream& err) {
  const CLI::App* command = nullptr;
  bool after_separator = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view word = argv[i];
    if (after_separator) continue;
    if (word == "--") {
      after_separator = true;
      continue;
    }
    const CLI::App& scope = command != nullptr ? *command : app;
    if (word.size() > 1 && word.front() == '-') {
      // `--opt=value` and `-jN` name the option before the value.
      std::string_view name = word.substr(0, word.find('='));
      if (!name.starts_with("--") && name.size() > 2) name = name.substr(0, 2);
      // Options of the top level (--help, --version) are accepted after a subcommand too.
      std::vector<std::string> known = option_names(scope);
      for (const std::string& top_level : option_names(app)) known.push_back(top_level);
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        print_unknown("option", name, option_names(scope), err);
        return true;
      }
      if (word.find('=') == std::string_view::npos && name == word && takes_value(scope, name)) ++i;
      continue;
    }
    if (command == nullptr) {
      std::vector<std::string> names = subcommand_names(app);
      if (std::find(names.begin(), names.end(), word) == names.end()) {
        print_unknown("command", word, names, err);
        return true;
      }
      command = app.get_subcommand(std::string(word));
    }
  }
  return false;
}

}  // namespace torchmigrate::cli
