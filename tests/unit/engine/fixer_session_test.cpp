// SPDX-License-Identifier: MIT
// Batch fixing of real files in a temporary tree: BOM and CRLF kept byte for byte, binary,
// non-UTF-8 and read-only files reported and left alone, the same result for any thread
// count, and symbolic links never followed out of the checked tree.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <sys/stat.h>
#include <unistd.h>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/run/session.hpp"

namespace fs = std::filesystem;
using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {

class TempTree {
 public:
  TempTree() {
    std::string pattern = (fs::temp_directory_path() / "torchmigrate-session-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    root_ = pattern;
  }
  ~TempTree() {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;
  [[nodiscard]] const fs::path& root() const { return root_; }
  fs::path write(const std::string& name, const std::string& bytes, mode_t mode = 0644) const {
    fs::path file = root_ / name;
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << bytes;
    ::chmod(file.c_str(), mode);
    return file;
  }

 private:
  fs::path root_;
};

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

const Linter& default_linter() {
  static const Linter linter(Catalog::builtin(), checks::builtin_registry(), Settings{});
  return linter;
}

std::string crlf(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

const std::string kFixable =
    "from torch.export import export_for_inference\n"
    "import torch\n"
    "a = export_for_inference(m, (x,))\n"
    "b = torch.export.export(m, (x,))\n";
const std::string kFixed =
    "from torch.export import export_for_training\n"
    "import torch\n"
    "a = export_for_training(m, (x,), strict=True).run_decompositions()\n"
    "b = torch.export.export(m, (x,), strict=True)\n";

// What a user sees of a run: per file, each finding and the bytes on disk afterwards.
std::string describe(const std::vector<FileOutcome>& outcomes, const std::vector<DiscoveredFile>& files) {
  std::ostringstream out;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    out << files[i].path << " applied=" << outcomes[i].applied.size() << "\n";
    for (const Diagnostic& diagnostic : outcomes[i].diagnostics) {
      LineColumn at = outcomes[i].source->location(diagnostic.range.start);
      out << "  " << at.line << ':' << at.column << ' ' << diagnostic.code << ' ' << diagnostic.message << "\n";
    }
    out << contents(files[i].path) << "\n";
  }
  return out.str();
}

}  // namespace

TEST_CASE("BOM and CRLF files come back byte-identical outside the fixed constructs") {
  TempTree tree;
  fs::path bom = tree.write("bom.py", "\xEF\xBB\xBF" + kFixable);
  fs::path windows = tree.write("windows.py", "\xEF\xBB\xBF" + crlf(kFixable));
  fs::path no_final_newline = tree.write("tail.py", crlf(kFixable.substr(0, kFixable.size() - 1)));
  Discovery discovery = discover({tree.root().string()});
  REQUIRE(discovery.files.size() == 3);
  std::vector<FileOutcome> outcomes = run_session(default_linter(), discovery.files, FixMode::Apply, 2);
  CHECK(contents(bom) == "\xEF\xBB\xBF" + kFixed);
  CHECK(contents(windows) == "\xEF\xBB\xBF" + crlf(kFixed));
  CHECK(contents(no_final_newline) == crlf(kFixed.substr(0, kFixed.size() - 1)));
  for (const FileOutcome& outcome : outcomes) CHECK(outcome.applied.size() == 3);
}

TEST_CASE("positions in a BOM file do not count the BOM") {
  TempTree tree;
  tree.write("bom.py", "\xEF\xBB\xBF" + kFixable);
  Discovery discovery = discover({tree.root().string()});
  std::vector<FileOutcome> outcomes = run_session(default_linter(), discovery.files, FixMode::Report, 1);
  REQUIRE(outcomes.size() == 1);
  REQUIRE_FALSE(outcomes[0].diagnostics.empty());
  const Diagnostic& first = outcomes[0].diagnostics.front();
  CHECK(first.code == "TM101");
  CHECK(first.range.start == 0);
  LineColumn at = outcomes[0].source->location(first.range.start);
  CHECK(at.line == 1);
  CHECK(at.column == 1);
}

TEST_CASE("--diff computes the fixed bytes and writes nothing") {
  TempTree tree;
  fs::path file = tree.write("a.py", "\xEF\xBB\xBF" + crlf(kFixable));
  Discovery discovery = discover({tree.root().string()});
  std::vector<FileOutcome> outcomes = run_session(default_linter(), discovery.files, FixMode::Diff, 1);
  REQUIRE(outcomes.size() == 1);
  REQUIRE(outcomes[0].changed());
  CHECK(outcomes[0].rewrite->original == "\xEF\xBB\xBF" + crlf(kFixable));
  CHECK(outcomes[0].rewrite->fixed == "\xEF\xBB\xBF" + crlf(kFixed));
  CHECK(contents(file) == "\xEF\xBB\xBF" + crlf(kFixable));
}

TEST_CASE("binary, non-UTF-8 and read-only files are reported and left untouched") {
  TempTree tree;
  std::string binary = "import torch\ntorch.export.export(m, (x,))\n" + std::string("\0\x01\x02", 3);
  std::string latin1 = "# caf\xE9\nimport torch\ntorch.export.export(m, (x,))\n";
  fs::path binary_file = tree.write("binary.py", binary);
  fs::path latin1_file = tree.write("latin1.py", latin1);
  fs::path read_only = tree.write("read_only.py", kFixable, 0444);
  Discovery discovery = discover({tree.root().string()});
  REQUIRE(discovery.files.size() == 3);
  std::vector<FileOutcome> outcomes = run_session(default_linter(), discovery.files, FixMode::Apply, 1);
  CHECK(contents(binary_file) == binary);
  CHECK(contents(latin1_file) == latin1);
  CHECK(contents(read_only) == kFixable);
  struct stat info {};
  REQUIRE(::stat(read_only.c_str(), &info) == 0);
  CHECK((info.st_mode & 07777) == 0444);

  // Sorted by path: binary.py, latin1.py, read_only.py.
  REQUIRE(outcomes[0].diagnostics.size() == 1);
  CHECK(outcomes[0].diagnostics[0].code == kIoErrorCode);
  CHECK(outcomes[0].diagnostics[0].severity == Severity::Info);
  CHECK(outcomes[0].diagnostics[0].message.find("NUL") != std::string::npos);
  REQUIRE(outcomes[1].diagnostics.size() == 1);
  CHECK(outcomes[1].diagnostics[0].message.find("not valid UTF-8") != std::string::npos);
  CHECK(outcomes[2].applied.empty());
  REQUIRE(outcomes[2].diagnostics.size() == 4);  // the note plus the three findings, not fixed
  CHECK(outcomes[2].diagnostics[0].code == kIoErrorCode);
  CHECK(outcomes[2].diagnostics[0].message.find("read-only") != std::string::npos);
}

TEST_CASE("the outcome and the files written are the same for any thread count") {
  std::string results[2];
  unsigned jobs[2] = {1, 8};
  for (int run = 0; run < 2; ++run) {
    TempTree tree;
    for (int i = 0; i < 24; ++i) {
      std::string name = "pkg" + std::to_string(i % 3) + "/m" + std::to_string(i) + ".py";
      std::string text = i % 4 == 0 ? crlf(kFixable) : i % 4 == 1 ? "\xEF\xBB\xBF" + kFixable
                                                     : i % 4 == 2 ? std::string("x = 1\n") : kFixable + "y = (\n";
      tree.write(name, text);
    }
    Discovery discovery = discover({tree.root().string()});
    REQUIRE(discovery.files.size() == 24);
    std::vector<FileOutcome> outcomes = run_session(default_linter(), discovery.files, FixMode::Apply, jobs[run]);
    std::string text = describe(outcomes, discovery.files);
    // Paths differ between the two temporary trees; compare what lies under them.
    std::string root = tree.root().string();
    for (size_t at = text.find(root); at != std::string::npos; at = text.find(root, at)) text.replace(at, root.size(), "ROOT");
    results[run] = text;
  }
  CHECK(results[0] == results[1]);
}

TEST_CASE("symbolic links are never followed out of the checked tree") {
  TempTree outside;
  outside.write("secret.py", kFixable);
  TempTree tree;
  fs::path project = tree.root() / "project";
  tree.write("project/pkg/real.py", kFixable);
  fs::create_symlink("pkg/real.py", project / "alias.py");               // inside: checked once
  fs::create_symlink(outside.root() / "secret.py", project / "leak.py");  // outside: note
  fs::create_symlink(outside.root(), project / "vendored");              // directory outside: note
  fs::create_symlink("missing.py", project / "broken.py");               // broken: note
  fs::create_symlink("pkg", project / "pkg_again");                      // directory inside: not walked twice

  Discovery discovery = discover({project.string()});
  REQUIRE(discovery.files.size() == 1);
  CHECK(discovery.files[0].path == (project / "pkg" / "real.py").lexically_normal());
  CHECK(discovery.errors.empty());
  REQUIRE(discovery.notes.size() == 3);
  std::string notes;
  for (const std::string& note : discovery.notes) notes += note + "\n";
  CHECK(notes.find("leak.py: symbolic link to a file outside the checked tree") != std::string::npos);
  CHECK(notes.find("vendored: symbolic link to a directory outside the checked tree") != std::string::npos);
  CHECK(notes.find("broken.py: broken symbolic link") != std::string::npos);

  run_session(default_linter(), discovery.files, FixMode::Apply, 4);
  CHECK(contents(outside.root() / "secret.py") == kFixable);
  CHECK(contents(project / "pkg" / "real.py") == kFixed);
  CHECK(fs::is_symlink(project / "alias.py"));

  SECTION("a link named on the command line is checked, and fixing writes through it") {
    tree.write("project/pkg/real.py", kFixable);
    Discovery named = discover({(project / "alias.py").string(), (project / "pkg/real.py").string()});
    REQUIRE(named.files.size() == 1);  // one file under two names is fixed once
    run_session(default_linter(), named.files, FixMode::Apply, 2);
    CHECK(fs::is_symlink(project / "alias.py"));
    CHECK(contents(project / "pkg" / "real.py") == kFixed);
  }
}

TEST_CASE("a run keeps the source only of files with findings or fixes") {
  TempTree tree;
  tree.write("clean.py", "import torch\nx = torch.ones(3)\n");
  tree.write("finding.py", kFixable);
  Discovery discovery = discover({tree.root().string()});
  REQUIRE(discovery.files.size() == 2);
  for (FixMode mode : {FixMode::Report, FixMode::Diff}) {
    std::vector<FileOutcome> outcomes = run_session(default_linter(), discovery.files, mode, 2);
    for (size_t i = 0; i < outcomes.size(); ++i) {
      const FileOutcome& outcome = outcomes[i];
      if (discovery.files[i].path.ends_with("/clean.py")) {
        CHECK(outcome.diagnostics.empty());
        CHECK(outcome.source == nullptr);
        CHECK(outcome.rewrite == nullptr);
      } else {
        CHECK(outcome.source->path() == discovery.files[i].path);
        CHECK(outcome.source->text() == (mode == FixMode::Report ? kFixable : kFixed));
      }
    }
  }
}
