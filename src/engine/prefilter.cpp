// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/prefilter.hpp"

#include <algorithm>
#include <functional>

namespace torchmigrate::engine {
namespace {

constexpr unsigned char ascii_lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

bool contains(std::string_view text, std::string_view needle, bool any_case) {
  if (!any_case) return text.find(needle) != std::string_view::npos;
  auto same = [](char a, char b) { return ascii_lower(static_cast<unsigned char>(a)) == static_cast<unsigned char>(b); };
  return std::search(text.begin(), text.end(), std::default_searcher(needle.begin(), needle.end(), same)) != text.end();
}

size_t word_end(std::string_view text, size_t from) {
  while (from < text.size() && is_word_byte(static_cast<unsigned char>(text[from]))) ++from;
  return from;
}

}  // namespace

Prefilter::Prefilter(const std::vector<const RuleSpec*>& rules) {
  for (const RuleSpec* rule : rules) {
    std::vector<const std::vector<std::string>*> lists{&rule->triggers};
    for (const auto& group : rule->trigger_groups) lists.push_back(&group);
    std::vector<size_t>& slots = rule_slots_.emplace_back();
    for (const std::vector<std::string>* list : lists) {
      size_t slot = slot_count_++;
      slots.push_back(slot);
      for (const std::string& trigger : *list) {
        if (rule->trigger_match != TriggerMatch::Word) {
          bool any_case = rule->trigger_match == TriggerMatch::AnyCase;
          std::string needle = trigger;
          if (any_case) std::transform(needle.begin(), needle.end(), needle.begin(), ascii_lower);
          scans_.push_back({std::move(needle), any_case, slot});
          continue;
        }
        // The catalog guarantees a word trigger starts with a word byte.
        size_t first_end = word_end(trigger, 0);
        words_[trigger.substr(0, first_end)].push_back({trigger.substr(first_end), slot});
        min_word_ = std::min(min_word_, first_end);
        max_word_ = std::max(max_word_, first_end);
      }
    }
  }
}

std::vector<bool> Prefilter::candidates(std::string_view text) const {
  std::vector<bool> satisfied(slot_count_, false);
  size_t open = slot_count_;
  auto satisfy = [&](size_t slot) {
    if (!satisfied[slot]) {
      satisfied[slot] = true;
      --open;
    }
  };
  for (const Scan& scan : scans_) {
    if (!satisfied[scan.slot] && contains(text, scan.needle, scan.any_case)) satisfy(scan.slot);
  }
  for (size_t i = 0; i < text.size() && open > 0;) {
    if (!is_word_byte(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    size_t end = word_end(text, i);
    size_t length = end - i;
    if (length >= min_word_ && length <= max_word_) {
      if (auto found = words_.find(text.substr(i, length)); found != words_.end()) {
        for (const WordTail& word : found->second) {
          if (satisfied[word.slot]) continue;
          std::string_view rest = text.substr(end);
          if (!rest.starts_with(word.tail)) continue;
          // A tail ending in a word byte must end at a word boundary too.
          bool ends_word = !word.tail.empty() && is_word_byte(static_cast<unsigned char>(word.tail.back()));
          if (ends_word && rest.size() > word.tail.size() &&
              is_word_byte(static_cast<unsigned char>(rest[word.tail.size()]))) {
            continue;
          }
          satisfy(word.slot);
        }
      }
    }
    i = end;
  }
  std::vector<bool> result(rule_slots_.size());
  for (size_t rule = 0; rule < rule_slots_.size(); ++rule) {
    result[rule] = std::all_of(rule_slots_[rule].begin(), rule_slots_[rule].end(),
                               [&](size_t slot) { return satisfied[slot]; });
  }
  return result;
}

}  // namespace torchmigrate::engine
