// SPDX-License-Identifier: MIT
// The trigger prefilter alone against the substring search it replaced (one `find` per trigger
// per rule), on the files named on standard input: throughput, and on how many files any
// Python rule of the built-in catalog can fire, and per rule the files and bytes it makes the
// linter parse (the rules that cost the most parses first).
//   find DIR -name '*.py' | ./build/benchmarks/prefilter_benchmark [ROUNDS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/lint/prefilter.hpp"

using namespace torchmigrate::engine;

namespace {

// The linter's test before the prefilter: any trigger of the rule as a substring.
bool substring_match(const RuleSpec& rule, std::string_view text) {
  return std::any_of(rule.triggers.begin(), rule.triggers.end(),
                     [&](const std::string& trigger) { return text.find(trigger) != std::string_view::npos; });
}

template <typename Pass>
double seconds(int rounds, Pass pass) {
  auto start = std::chrono::steady_clock::now();
  for (int round = 0; round < rounds; ++round) pass();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  std::vector<std::string> texts;
  size_t bytes = 0;
  for (std::string path; std::getline(std::cin, path);) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    texts.push_back(content.str());
    bytes += texts.back().size();
  }
  std::vector<const RuleSpec*> rules;
  for (const RuleSpec& rule : Catalog::builtin().rules()) {
    if (rule.language == RuleLanguage::Python && rule.check_family != "unused-suppression") rules.push_back(&rule);
  }
  Prefilter prefilter(rules);
  size_t word_files = 0, substring_files = 0, word_pairs = 0, substring_pairs = 0;
  double word_time = seconds(rounds, [&] {
    word_files = word_pairs = 0;
    for (const std::string& text : texts) {
      std::vector<bool> fires = prefilter.candidates(text);
      size_t count = static_cast<size_t>(std::count(fires.begin(), fires.end(), true));
      word_pairs += count;
      word_files += count > 0;
    }
  });
  double substring_time = seconds(rounds, [&] {
    substring_files = substring_pairs = 0;
    for (const std::string& text : texts) {
      size_t count = static_cast<size_t>(
          std::count_if(rules.begin(), rules.end(), [&](const RuleSpec* rule) { return substring_match(*rule, text); }));
      substring_pairs += count;
      substring_files += count > 0;
    }
  });
  std::vector<size_t> rule_files(rules.size()), rule_bytes(rules.size());
  size_t only_bytes = 0, parsed_bytes = 0;
  std::vector<size_t> sole_files(rules.size());
  for (const std::string& text : texts) {
    std::vector<bool> fires = prefilter.candidates(text);
    size_t count = static_cast<size_t>(std::count(fires.begin(), fires.end(), true));
    if (count > 0) parsed_bytes += text.size();
    for (size_t rule = 0; rule < rules.size(); ++rule) {
      if (!fires[rule]) continue;
      ++rule_files[rule];
      rule_bytes[rule] += text.size();
      if (count == 1) {
        ++sole_files[rule];
        only_bytes += text.size();
      }
    }
  }
  double megabytes = static_cast<double>(bytes) * rounds / (1 << 20);
  std::cout << texts.size() << " files, " << bytes << " bytes, " << rules.size() << " Python rules, " << rounds
            << " rounds\n"
            << "prefilter (words): " << megabytes / word_time << " MB/s; " << word_files
            << " files with a rule to run, " << word_pairs << " (file, rule) pairs\n"
            << "substring finds:   " << megabytes / substring_time << " MB/s; " << substring_files
            << " files with a rule to run, " << substring_pairs << " (file, rule) pairs\n"
            << "parsed: " << parsed_bytes << " of " << bytes
            << " bytes; files a rule alone makes parsed: " << only_bytes << " bytes\n\nrule    files  MB      alone\n";
  std::vector<size_t> order(rules.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return rule_bytes[a] > rule_bytes[b]; });
  for (size_t rule : order) {
    if (rule_files[rule] == 0) continue;
    std::printf("%-7s %5zu  %6.2f  %5zu\n", rules[rule]->code.c_str(), rule_files[rule],
                static_cast<double>(rule_bytes[rule]) / (1 << 20), sole_files[rule]);
  }
  return 0;
}
