// SPDX-License-Identifier: MIT
// Entry point: parses the command line and hands over to one subcommand.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include "torchmigrate/cli/commands.hpp"
#include "torchmigrate/cli/completion.hpp"
#include "torchmigrate/cli/kept_until_exit.hpp"
#include "torchmigrate/cli/merge_command.hpp"
#include "torchmigrate/cli/report_command.hpp"
#include "torchmigrate/cli/suggest.hpp"
#include "torchmigrate/core/shared_library.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/version.hpp"

namespace {

std::string version_line() {
  std::string revision = *torchmigrate::kRevision != '\0' ? std::string(" (") + torchmigrate::kRevision + ")" : "";
  return std::string("torchmigrate ") + torchmigrate::kVersion + revision;
}

using namespace torchmigrate::cli;

// Every subcommand with the options it fills.
struct CommandLine {
  CLI::App app;
  CheckOptions check_options;
  CLI::App* check = nullptr;
  MergeOptions merge_options;
  CLI::App* merge = nullptr;
  std::string rule_code;
  bool all_rules = false;
  std::string rule_format = "text";
  CLI::App* rule = nullptr;
  std::string rules_format = "text";
  std::string rules_docs_directory;
  CLI::App* rules = nullptr;
  ReportOptions report_options;
  CLI::App* report = nullptr;
  CLI::App* server = nullptr;
  std::string shell;
  CLI::App* completion = nullptr;

  CommandLine();
  int dispatch(const torchmigrate::engine::Catalog& catalog);
};

CommandLine::CommandLine() {
  torchmigrate::engine::ReleaseNames release = torchmigrate::engine::builtin_release_names();
  app.description(fmt::format("torchmigrate: find, explain and fix what breaks when upgrading PyTorch {} to {}",
                              release.from, release.to));
  app.set_version_flag("--version", version_line());
  app.require_subcommand(1);
  check = app.add_subcommand(
      "check", fmt::format("Check files and directories (recursively) for {} migration issues", release.to));
  add_check_options(*check, check_options);
  merge = add_merge_command(app, merge_options);

  rule = app.add_subcommand("rule", "Explain a rule: what it finds, why, an example and its fix safety");
  CLI::Option* code_option =
      rule->add_option("CODE", rule_code, "Rule code or name, in any case (`torchmigrate rules` lists them)");
  rule->add_flag("--all", all_rules, "Explain every rule")->excludes(code_option);
  rule->add_option("--output-format", rule_format, "text (Markdown) or json")->check(CLI::IsMember({"text", "json"}));

  rules = app.add_subcommand("rules", "List every rule");
  rules->add_option("--output-format", rules_format, "text, json or markdown (the docs/rules index table)")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  rules->add_option("--write-docs", rules_docs_directory,
                    "Write every rule's docs as Markdown (<CODE>-<name>.md) plus a README.md index to DIR")
      ->type_name("DIR");

  report = app.add_subcommand("report", "Write the migration report: one self-contained HTML page to plan from");
  add_report_options(*report, report_options);
  server = app.add_subcommand("server", "Run the language server (LSP over stdin/stdout) for editors");
  // Editors' LSP clients (VS Code's among them) name the transport; stdin/stdout is the only one.
  server->add_flag("--stdio")->description("Talk LSP over stdin/stdout (the default and only transport)");
  completion = app.add_subcommand("completion", "Print a shell completion script (bash, zsh or fish)");
  completion->add_option("SHELL", shell, "bash, zsh or fish")->required()->check(CLI::IsMember({"bash", "zsh", "fish"}));
}

int CommandLine::dispatch(const torchmigrate::engine::Catalog& catalog) {
  try {
    if (check->parsed()) return run_check(check_options, catalog);
    if (report->parsed()) return run_report(report_options, catalog);
  } catch (const torchmigrate::MissingLibrary& error) {
    std::cerr << "torchmigrate: error: " << error.what() << '\n';
    return kExitUsage;
  }
  if (merge->parsed()) return run_merge(merge_options, catalog);
  if (rule->parsed()) {
    if (all_rules) return run_all_rules(catalog, rule_format);
    if (rule_code.empty()) {
      std::cerr << "torchmigrate: error: `rule` needs a CODE, or --all\n";
      return kExitUsage;
    }
    return run_rule(catalog, rule_code, rule_format);
  }
  if (rules->parsed()) return run_rules(catalog, rules_format, rules_docs_directory);
  if (server->parsed()) return run_server(catalog);
  if (completion->parsed()) {
    write_completion(app, catalog, shell, std::cout);
    return kExitClean;
  }
  return kExitUsage;
}

int run_command(int argc, char** argv) {
  // Scripts and installers probe with `--version`: answered before the command line, every
  // subcommand and option, is built (a fifth of its time after the loader's).
  if (argc == 2 && std::string_view(argv[1]) == "--version") {
    std::cout << version_line() << '\n';
    return kExitClean;
  }
  CommandLine& line = kept_until_exit<CommandLine>();
  CLI::App& app = line.app;
  // As Ruff: no command at all prints the help, on stderr, as a usage error.
  if (argc <= 1) {
    app.name("torchmigrate");  // parsing names the app from argv[0]; nothing was parsed
    std::cerr << app.help();
    return kExitUsage;
  }
  if (report_unknown_words(app, argc, argv, std::cerr)) return kExitUsage;
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForVersion& version) {
    return app.exit(version);
  } catch (const CLI::ParseError& error) {
    app.exit(error);
    return kExitUsage;
  }
  // Every argument now sits in the options above; CLI11's own copies of them go before the run
  // (a pre-commit run names thousands of files).
  for (CLI::App* command : {line.check, line.report}) {
    for (CLI::Option* option : command->get_options()) option->clear();
  }
  // The one place the built-in catalog is named: every command gets it from here.
  return line.dispatch(torchmigrate::engine::Catalog::builtin());
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = run_command(argc, argv);
  if constexpr (!torchmigrate::cli::kFreeAtExit) {
    // What is left to destroy is the process's to reclaim (cli/kept_until_exit.hpp); every
    // report, fixed file and cache was written and closed before the command returned.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(exit_code);
  }
  return exit_code;
}
