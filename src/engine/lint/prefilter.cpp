// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/lint/prefilter.hpp"

#include <algorithm>
#include <functional>
#include <iterator>
#include <optional>

#include "torchmigrate/python/word_places.hpp"

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

// Whitespace between Python tokens, line continuations included; matching too much is safe.
constexpr bool is_gap_byte(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' || c == '\\';
}

// Past whitespace and comments (inside brackets a comment may sit between two tokens).
size_t skip_gap(std::string_view text, size_t from) {
  while (from < text.size()) {
    if (text[from] == '#') {
      from = text.find('\n', from);
      if (from == std::string_view::npos) return text.size();
    } else if (!is_gap_byte(text[from])) {
      break;
    }
    ++from;
  }
  return from;
}

// Whether `tail` matches `text` at `at`: a space stands for any non-empty gap, punctuation may
// have a gap on either side, a word byte is itself; a tail ending in a word byte ends at a word
// boundary, and a final `$` asks for the end of a statement.
bool tail_matches(std::string_view text, size_t at, std::string_view tail) {
  bool ends_statement = tail.ends_with('$');
  if (ends_statement) tail.remove_suffix(1);
  for (char c : tail) {
    if (c == ' ') {
      size_t after = skip_gap(text, at);
      if (after == at) return false;
      at = after;
    } else if (!is_word_byte(static_cast<unsigned char>(c))) {
      at = skip_gap(text, at);
      if (at >= text.size() || text[at] != c) return false;
      at = skip_gap(text, at + 1);
    } else {
      if (at >= text.size() || text[at] != c) return false;
      ++at;
    }
  }
  if (!tail.empty() && is_word_byte(static_cast<unsigned char>(tail.back())) && at < text.size() &&
      is_word_byte(static_cast<unsigned char>(text[at]))) {
    return false;
  }
  if (!ends_statement) return true;
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  return at == text.size() || std::string_view("\n\r;#\\").find(text[at]) != std::string_view::npos;
}

// Where `c` stands before `at`, a gap allowed in between. Reading backwards cannot tell a
// comment from a `#` in a string, so both readings are tried (erring towards matching): the line
// as it is, then the line cut at its first `#`.
std::optional<size_t> preceding(std::string_view text, size_t at, char c) {
  for (;;) {
    while (at > 0 && is_gap_byte(text[at - 1])) --at;
    if (at > 0 && text[at - 1] == c) return at - 1;
    size_t line_start = at == 0 ? 0 : text.rfind('\n', at - 1);
    line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
    size_t hash = text.find('#', line_start);
    if (hash >= at) return std::nullopt;
    at = hash;
  }
}

// Whether `prefix` (punctuation, no spaces) ends the text before `at`, byte by byte from the
// right, with gaps allowed between them as between any two tokens (`( "mps"`).
bool prefix_matches(std::string_view text, size_t at, std::string_view prefix) {
  for (size_t k = prefix.size(); k-- > 0;) {
    std::optional<size_t> found = preceding(text, at, prefix[k]);
    if (!found) return false;
    at = *found;
  }
  return true;
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
        // The catalog guarantees a word trigger holds a word byte.
        size_t first = 0;
        while (!is_word_byte(static_cast<unsigned char>(trigger[first]))) ++first;
        std::string prefix;
        std::copy_if(trigger.begin(), trigger.begin() + static_cast<std::ptrdiff_t>(first), std::back_inserter(prefix),
                     [](char c) { return c != ' '; });
        size_t first_end = word_end(trigger, first);
        std::string tail = trigger.substr(first_end);
        size_t shown = tail.find_first_not_of(' ');
        char next = shown == std::string::npos || tail[shown] == '$' ? '\0' : tail[shown];
        words_[trigger.substr(first, first_end - first)].push_back({std::move(prefix), std::move(tail), slot, next});
        size_t length = std::min(first_end - first, kLongestWord);
        first_words_[static_cast<unsigned char>(trigger[first])] |= uint64_t{1} << length;
        last_words_[static_cast<unsigned char>(trigger[first_end - 1])] |= uint64_t{1} << length;
      }
    }
  }
}

std::vector<bool> Prefilter::candidates(std::string_view text, WordPlacesOf places_of) const {
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
  // A word's match is confirmed (its tail, its prefix, for Python that it is code) only once the
  // scan is over, and only for slots whose rules can still fire: `, load` in a file without
  // `jit` costs no look around each `load`, and telling strings from code no read of the text.
  struct Match {
    size_t begin;
    size_t end;
    const WordTail* word;
  };
  std::vector<Match> unconfirmed;
  std::vector<bool> matched(slot_count_, false);
  const bool python = places_of == WordPlacesOf::Python;
  if (open > 0) {
    for_each_word(text, [&](size_t begin, size_t end) {
      size_t length = end - begin;
      size_t bit = std::min(length, kLongestWord);
      if ((first_words_[static_cast<unsigned char>(text[begin])] >> bit) & 1 &&
          (last_words_[static_cast<unsigned char>(text[end - 1])] >> bit) & 1) {
        if (auto found = words_.find(text.substr(begin, length)); found != words_.end()) {
          size_t after = skip_gap(text, end);
          char next = after < text.size() ? text[after] : '\0';
          for (const WordTail& word : found->second) {
            if (satisfied[word.slot] || (word.next != '\0' && word.next != next)) continue;
            if (!python && word.tail.empty() && word.prefix.empty()) {
              satisfy(word.slot);
            } else {
              unconfirmed.push_back({begin, end, &word});
              matched[word.slot] = true;
            }
          }
        }
      }
      return open > 0;
    });
  }
  if (!unconfirmed.empty()) {
    std::vector<bool> wanted(slot_count_, false);
    for (const std::vector<size_t>& slots : rule_slots_) {
      if (!std::all_of(slots.begin(), slots.end(), [&](size_t slot) { return satisfied[slot] || matched[slot]; })) {
        continue;
      }
      for (size_t slot : slots) wanted[slot] = true;
    }
    std::optional<python::WordPlaces> places;
    if (python) places.emplace(text);
    for (const Match& match : unconfirmed) {
      const WordTail& word = *match.word;
      if (!wanted[word.slot] || satisfied[word.slot] || !tail_matches(text, match.end, word.tail)) continue;
      if (!word.prefix.empty() && !prefix_matches(text, match.begin, word.prefix)) continue;
      if (!places || places->may_be_code(match.begin)) satisfy(word.slot);
    }
  }
  std::vector<bool> result(rule_slots_.size());
  for (size_t rule = 0; rule < rule_slots_.size(); ++rule) {
    result[rule] = std::all_of(rule_slots_[rule].begin(), rule_slots_[rule].end(),
                               [&](size_t slot) { return satisfied[slot]; });
  }
  return result;
}

}  // namespace torchmigrate::engine
