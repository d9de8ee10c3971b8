// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/lint/fixer.hpp"

#include <algorithm>
#include <set>

#include "torchmigrate/engine/lint/module_map.hpp"

namespace torchmigrate::engine {
namespace {

// One fix picked in a pass, with its edits already adapted to the file's line endings.
struct Candidate {
  const Diagnostic* diagnostic;
  const Fix* fix;
  std::vector<Edit> edits;
  uint32_t line;
};

Diagnostic internal_error(std::string message) {
  Diagnostic diagnostic;
  diagnostic.code = kInternalErrorCode;
  diagnostic.severity = Severity::Error;
  diagnostic.message = std::move(message);
  return diagnostic;
}

// "TM101" or "TM101, TM201", in first-seen order.
std::string code_list(const std::vector<std::string>& codes) {
  std::vector<std::string> unique;
  for (const std::string& code : codes) {
    if (std::find(unique.begin(), unique.end(), code) == unique.end()) unique.push_back(code);
  }
  std::string list;
  for (const std::string& code : unique) list += (list.empty() ? "" : ", ") + code;
  return list;
}

// A check's edits must stay inside the text and must not overlap each other (exact copies
// are tolerated); anything else is a bug in the check, never applied.
bool valid_edits(const std::vector<Edit>& edits, size_t size) {
  for (size_t i = 0; i < edits.size(); ++i) {
    if (edits[i].range.start > edits[i].range.end || edits[i].range.end > size) return false;
    for (size_t j = 0; j < i; ++j) {
      if (!(edits[i] == edits[j]) && edits[i].range.overlaps(edits[j].range)) return false;
    }
  }
  return true;
}

// Edits of one fix may go in when each either touches nothing accepted so far or is an exact
// copy of an accepted edit (two findings sharing an import rewrite).
bool compatible(const std::vector<Edit>& edits, const std::vector<Edit>& accepted) {
  for (const Edit& edit : edits) {
    for (const Edit& other : accepted) {
      if (edit == other) continue;
      if (edit.range.overlaps(other.range)) return false;
    }
  }
  return true;
}

void add_unique(std::vector<Edit>& accepted, const std::vector<Edit>& edits) {
  for (const Edit& edit : edits) {
    if (std::find(accepted.begin(), accepted.end(), edit) == accepted.end()) accepted.push_back(edit);
  }
}

bool ends_with_newline(std::string_view text) { return !text.empty() && text.back() == '\n'; }

// Applies `edits` to `text`; when an edit reaches the end of the file, the result keeps the
// final-newline state of `original` (edits elsewhere cannot change it).
std::string apply_keeping_final_newline(std::string_view text, const std::vector<Edit>& edits,
                                        const SourceFile& original) {
  std::string result = apply_edits(text, edits);
  bool touches_end = std::any_of(edits.begin(), edits.end(),
                                 [&](const Edit& edit) { return edit.range.end == text.size(); });
  if (!touches_end || original.text().empty()) return result;
  bool wanted = ends_with_newline(original.text());
  if (wanted && !result.empty() && !ends_with_newline(result)) {
    result += original.line_ending();
  } else if (!wanted && ends_with_newline(result)) {
    result.pop_back();
    if (!result.empty() && result.back() == '\r') result.pop_back();
  }
  return result;
}

}  // namespace

const Fix* chosen_fix(const Diagnostic& diagnostic, const Settings& settings) {
  if (diagnostic.fixes.empty()) return nullptr;
  FixPolicy policy = settings.policy_for(diagnostic.code);
  for (const Fix& fix : diagnostic.fixes) {
    if (fix.policy == FixPolicy::None || fix.policy == policy) return &fix;
  }
  return &diagnostic.fixes.front();
}

bool will_apply(const Fix& fix, const Settings& settings) {
  Applicability applicability = settings.effective(fix);
  return applicability == Applicability::Safe || (applicability == Applicability::Unsafe && settings.unsafe_fixes);
}

Edit adapt_line_endings(Edit edit, std::string_view text) {
  if (edit.replacement.find('\n') == std::string::npos) return edit;
  // The terminator of the line the edit starts on; the last line, which may have none, follows
  // the line before it.
  uint32_t start = std::min<uint32_t>(edit.range.start, static_cast<uint32_t>(text.size()));
  size_t newline = text.find('\n', start);
  if (newline == std::string_view::npos && start > 0) newline = text.rfind('\n', start - 1);
  bool crlf = newline != std::string_view::npos && newline > 0 && text[newline - 1] == '\r';
  if (!crlf) return edit;
  std::string adapted;
  adapted.reserve(edit.replacement.size() + 8);
  for (size_t i = 0; i < edit.replacement.size(); ++i) {
    char c = edit.replacement[i];
    if (c == '\n' && (i == 0 || edit.replacement[i - 1] != '\r')) adapted += '\r';
    adapted += c;
  }
  edit.replacement = std::move(adapted);
  return edit;
}

void withhold_self_imports(std::vector<Diagnostic>& diagnostics, const SourceFile& file) {
  std::optional<std::optional<ModuleLocation>> self;  // located on the first fix that imports
  for (Diagnostic& diagnostic : diagnostics) {
    std::string reason;
    std::erase_if(diagnostic.fixes, [&](const Fix& fix) {
      if (fix.imported_modules.empty()) return false;
      if (!self) self = locate_module(file.path());
      if (!*self) return false;
      const ModuleLocation& module = **self;
      for (const std::string& target : fix.imported_modules) {
        if (target != module.name) continue;
        reason = "the new import would make `" + module.name + "` import itself";
        return true;
      }
      for (const std::string& target : fix.imported_modules) {
        if (!project_module_map().imports_back(module, target)) continue;
        reason = "`" + target + "` imports `" + module.name + "` back at top level, so the new import would be circular";
        return true;
      }
      return false;
    });
    if (!reason.empty()) diagnostic.message += "; no fix is offered because " + reason;
  }
}

namespace {

// One file's fixing: lint, apply every compatible fix, lint the result again, until no fix is
// left to apply, a fix would add a syntax error, or the passes run out.
class FileFixer {
 public:
  FileFixer(const Linter& linter, const SourceFile& file)
      : linter_(linter),
        settings_(linter.settings()),
        file_(file),
        text_(file.text()),
        original_diagnostics_(lint(file)),
        diagnostics_(original_diagnostics_) {}

  FixOutcome run();

 private:
  // Every front counts the syntax errors of its files; a fix may not add one.
  size_t syntax_errors_of(const std::string& candidate) const {
    return linter_.syntax_errors(SourceFile(file_.path(), candidate, file_.language()));
  }
  std::vector<Diagnostic> lint(const SourceFile& source) const {
    std::vector<Diagnostic> found = linter_.lint(source);
    withhold_self_imports(found, source);
    return found;
  }
  void roll_back(Diagnostic problem) {
    outcome_.rollback = problem;
    outcome_.problems.push_back(std::move(problem));
    outcome_.text = file_.text();
    outcome_.applied.clear();
    outcome_.remaining = original_diagnostics_;
  }
  std::vector<Candidate> pick(const SourceFile& current, std::vector<Edit>& accepted);
  bool breaks_syntax(int pass, const std::vector<Candidate>& candidates, const std::string& next);
  void roll_back_syntax_error(int pass, const std::vector<Candidate>& candidates);

  const Linter& linter_;
  const Settings& settings_;
  const SourceFile& file_;
  FixOutcome outcome_;
  std::string text_;
  const std::vector<Diagnostic> original_diagnostics_;
  std::vector<Diagnostic> diagnostics_;
  std::optional<size_t> syntax_errors_;  // of `text_`; computed once a pass has something to apply
  bool broken_before_ = false;           // the file as read already had a syntax error
  std::set<std::string> invalid_reported_;
};

FixOutcome FileFixer::run() {
  for (int pass = 0;; ++pass) {
    SourceFile current(file_.path(), text_, file_.language());
    if (pass > 0) diagnostics_ = lint(current);
    std::vector<Edit> accepted;
    std::vector<Candidate> candidates = pick(current, accepted);
    if (accepted.empty()) {
      outcome_.text = std::move(text_);
      outcome_.remaining = std::move(diagnostics_);
      break;
    }
    if (pass == kMaxFixPasses) {
      std::vector<std::string> codes;
      for (const Candidate& candidate : candidates) codes.push_back(candidate.diagnostic->code);
      outcome_.hit_pass_limit = true;
      roll_back(internal_error("Fixes for " + code_list(codes) + " did not settle after " +
                               std::to_string(kMaxFixPasses) + " passes; the file was left unchanged (please report this)"));
      break;
    }
    std::string next = apply_keeping_final_newline(text_, accepted, file_);
    if (breaks_syntax(pass, candidates, next)) break;
    for (const Candidate& candidate : candidates) {
      outcome_.applied.push_back({candidate.diagnostic->code, candidate.fix->title, candidate.line});
    }
    text_ = std::move(next);
  }
  return std::move(outcome_);
}

// The fixes of this pass that apply and fit together, their edits added to `accepted`.
std::vector<Candidate> FileFixer::pick(const SourceFile& current, std::vector<Edit>& accepted) {
  std::vector<Candidate> candidates;
  for (const Diagnostic& diagnostic : diagnostics_) {
    const Fix* fix = chosen_fix(diagnostic, settings_);
    if (fix == nullptr || fix->edits.empty() || !will_apply(*fix, settings_)) continue;
    if (!valid_edits(fix->edits, text_.size())) {
      if (invalid_reported_.insert(diagnostic.code).second) {
        outcome_.problems.push_back(internal_error("A fix of " + diagnostic.code +
                                                   " produced an invalid edit and was skipped (please report this)"));
      }
      continue;
    }
    std::vector<Edit> edits;
    for (const Edit& edit : fix->edits) edits.push_back(adapt_line_endings(edit, text_));
    if (!compatible(edits, accepted)) continue;  // the next pass sees it again
    add_unique(accepted, edits);
    candidates.push_back({&diagnostic, fix, std::move(edits), current.location(diagnostic.range.start).line});
  }
  return candidates;
}

// Whether `next` has more syntax errors than the text it was made from; then the fixes are rolled back.
bool FileFixer::breaks_syntax(int pass, const std::vector<Candidate>& candidates, const std::string& next) {
  if (!syntax_errors_) {
    syntax_errors_ = syntax_errors_of(text_);
    broken_before_ = pass == 0 && *syntax_errors_ > 0;
  }
  size_t after = syntax_errors_of(next);
  if (after > *syntax_errors_) {
    roll_back_syntax_error(pass, candidates);
    return true;
  }
  syntax_errors_ = after;
  return false;
}

void FileFixer::roll_back_syntax_error(int pass, const std::vector<Candidate>& candidates) {
  // Name the fixes that break the syntax on their own; if none does, the combination did.
  std::vector<std::string> culprits;
  uint32_t line = 0;
  for (const Candidate& candidate : candidates) {
    if (syntax_errors_of(apply_keeping_final_newline(text_, candidate.edits, file_)) > *syntax_errors_) {
      culprits.push_back(candidate.diagnostic->code);
      if (line == 0) line = candidate.line;
    }
  }
  if (culprits.empty()) {
    for (const Candidate& candidate : candidates) culprits.push_back(candidate.diagnostic->code);
  }
  std::string where = line != 0 && pass == 0 ? " at line " + std::to_string(line) : "";
  if (broken_before_) {
    // Expected, not a bug: a finding in code the parser had to recover from can carry a
    // fix that does not fit the code as written.
    Diagnostic problem;
    problem.code = kIoErrorCode;
    problem.severity = Severity::Warning;
    problem.message = "Fix for " + code_list(culprits) + where +
                      " not applied: the file already has a syntax error (TM901) and the fix would add one; "
                      "the file was left unchanged. Correct the syntax error, then run --fix again";
    roll_back(std::move(problem));
  } else {
    roll_back(internal_error("Fix for " + code_list(culprits) + where +
                             " would introduce a syntax error; the file was left unchanged (please report this)"));
  }
}

}  // namespace

FixOutcome fix_file(const Linter& linter, const SourceFile& file) { return FileFixer(linter, file).run(); }

}  // namespace torchmigrate::engine
