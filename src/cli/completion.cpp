// SPDX-License-Identifier: MIT
#include "torchmigrate/cli/completion.hpp"

#include <fmt/format.h>

#include <set>
#include <vector>

#include "torchmigrate/engine/catalog/catalog.hpp"

namespace torchmigrate::cli {

namespace {

// What a value may be: fixed words, a file, a directory, or anything.
struct ValueKind {
  enum { None, Words, File, Directory, Free } kind = None;
  std::vector<std::string> words;
};

struct OptionInfo {
  std::vector<std::string> names;  // -j, --jobs
  std::string description;
  ValueKind value;
};

struct CommandInfo {
  std::string name, description;
  std::vector<OptionInfo> options;
  ValueKind positional;  // what the positional arguments are
};

const std::set<std::string> kRuleSelectors = {"--select",  "--extend-select", "--ignore",
                                              "--fixable", "--unfixable",     "--extend-fixable"};

std::vector<std::string> rule_words(const engine::Catalog& catalog) {
  std::set<std::string> words = {"ALL"};
  for (const engine::RuleSpec& rule : catalog.rules()) {
    words.insert(rule.code);
    words.insert(rule.code.substr(0, 3));  // the family prefix, TM1
  }
  return {words.begin(), words.end()};
}

// CLI11 writes a choice list into the type name: `TEXT:{concise,full,...}`.
std::vector<std::string> choices_of(const std::string& type_name) {
  std::vector<std::string> choices;
  size_t open = type_name.find(":{");
  size_t close = type_name.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return choices;
  std::string list = type_name.substr(open + 2, close - open - 2);
  for (size_t start = 0; start <= list.size();) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    if (comma > start) choices.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return choices;
}

ValueKind value_of(const CLI::Option& option, const engine::Catalog& catalog) {
  ValueKind value;
  if (option.get_items_expected_max() == 0 || option.get_type_name().empty()) return value;  // a flag
  std::string long_name = option.get_lnames().empty() ? "" : "--" + option.get_lnames().front();
  std::string type = option.get_type_name();
  if (kRuleSelectors.contains(long_name) || type == "CODE" || option.get_name(true) == "CODE") {
    value.kind = ValueKind::Words;
    value.words = rule_words(catalog);
  } else if (std::vector<std::string> choices = choices_of(type); !choices.empty()) {
    value.kind = ValueKind::Words;
    value.words = std::move(choices);
  } else if (type.starts_with("DIR")) {
    value.kind = ValueKind::Directory;
  } else if (type.starts_with("UINT") || type.starts_with("INT") || long_name == "--policy") {
    value.kind = ValueKind::Free;
  } else {
    value.kind = ValueKind::File;
  }
  return value;
}

std::vector<CommandInfo> commands_of(const CLI::App& app, const engine::Catalog& catalog) {
  std::vector<CommandInfo> commands;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    CommandInfo command{sub->get_name(), sub->get_description(), {}, {}};
    for (const CLI::Option* option : sub->get_options()) {
      if (option->get_positional() && !option->nonpositional()) {
        command.positional = value_of(*option, catalog);
        continue;
      }
      OptionInfo info;
      for (const std::string& name : option->get_snames()) info.names.push_back("-" + name);
      for (const std::string& name : option->get_lnames()) info.names.push_back("--" + name);
      info.description = option->get_description();
      info.value = value_of(*option, catalog);
      command.options.push_back(std::move(info));
    }
    commands.push_back(std::move(command));
  }
  return commands;
}

std::string joined(const std::vector<std::string>& words, std::string_view separator = " ") {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : std::string(separator)) + word;
  return out;
}

// Shell-quoted in single quotes.
std::string shell_quoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string bash_reply(const ValueKind& value) {
  switch (value.kind) {
    case ValueKind::Words: return fmt::format("COMPREPLY=($(compgen -W {} -- \"$cur\"))", shell_quoted(joined(value.words)));
    case ValueKind::Directory: return "COMPREPLY=($(compgen -d -- \"$cur\"))";
    case ValueKind::File: return "COMPREPLY=($(compgen -f -- \"$cur\"))";
    case ValueKind::Free:
    case ValueKind::None: break;
  }
  return "COMPREPLY=()";
}

void write_bash(const std::vector<CommandInfo>& commands, std::ostream& out) {
  std::vector<std::string> names;
  for (const CommandInfo& command : commands) names.push_back(command.name);
  out << "# bash completion for torchmigrate (torchmigrate completion bash)\n"
         "_torchmigrate() {\n"
         "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" command=\"\" i\n"
         "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
         "    case \"${COMP_WORDS[i]}\" in\n"
      << fmt::format("      {}) command=\"${{COMP_WORDS[i]}}\"; break ;;\n", joined(names, "|"))
      << "    esac\n"
         "  done\n"
         "  if [[ -z $command ]]; then\n"
      << fmt::format("    COMPREPLY=($(compgen -W {} -- \"$cur\"))\n", shell_quoted(joined(names) + " --help --version"))
      << "    return\n"
         "  fi\n"
         "  case \"$command:$prev\" in\n";
  for (const CommandInfo& command : commands) {
    for (const OptionInfo& option : command.options) {
      if (option.value.kind == ValueKind::None) continue;
      std::vector<std::string> patterns;
      for (const std::string& name : option.names) patterns.push_back(command.name + ":" + name);
      out << fmt::format("    {}) {}; return ;;\n", joined(patterns, "|"), bash_reply(option.value));
    }
  }
  out << "  esac\n"
         "  case \"$command\" in\n";
  for (const CommandInfo& command : commands) {
    std::vector<std::string> names_of_options;
    for (const OptionInfo& option : command.options) names_of_options.insert(names_of_options.end(), option.names.begin(), option.names.end());
    out << fmt::format("    {})\n      if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W {} -- \"$cur\")); else {}; fi ;;\n",
                       command.name, shell_quoted(joined(names_of_options)), bash_reply(command.positional));
  }
  out << "  esac\n"
         "}\n"
         "complete -o filenames -F _torchmigrate torchmigrate\n";
}

// zsh's _arguments specs: brackets and colons in descriptions must be escaped.
std::string zsh_escaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '[' || c == ']' || c == ':' || c == '\\') out += '\\';
    if (c == '\'') {
      out += "'\\''";
      continue;
    }
    out += c;
  }
  return out;
}

std::string zsh_action(const ValueKind& value) {
  switch (value.kind) {
    case ValueKind::Words: return "(" + joined(value.words) + ")";
    case ValueKind::Directory: return "_directories";
    case ValueKind::File: return "_files";
    case ValueKind::Free: return " ";
    case ValueKind::None: break;
  }
  return "";
}

void write_zsh(const std::vector<CommandInfo>& commands, std::ostream& out) {
  out << "#compdef torchmigrate\n# zsh completion for torchmigrate (torchmigrate completion zsh)\n\n";
  for (const CommandInfo& command : commands) {
    out << fmt::format("_torchmigrate_{}() {{\n  _arguments -s \\\n", command.name);
    for (const OptionInfo& option : command.options) {
      std::string names = option.names.size() == 1 ? option.names.front()
                                                   : "{" + joined(option.names, ",") + "}";
      std::string exclusive = option.names.size() == 1 ? "" : "'(" + joined(option.names) + ")'";
      std::string spec = "[" + zsh_escaped(option.description) + "]";
      if (option.value.kind != ValueKind::None) spec += ":value:" + zsh_action(option.value);
      out << "    " << exclusive << names << "'" << spec << "' \\\n";
    }
    if (command.positional.kind != ValueKind::None) {
      out << "    '*:argument:" << zsh_action(command.positional) << "'\n";
    } else {
      out << "    ''\n";
    }
    out << "}\n\n";
  }
  out << "_torchmigrate() {\n"
         "  local line state\n"
         "  _arguments -C '(- *)--help[Print help]' '(- *)--version[Print the version]' '1: :->command' '*:: :->argument'\n"
         "  case $state in\n"
         "    command)\n"
         "      local -a commands\n"
         "      commands=(\n";
  for (const CommandInfo& command : commands) {
    out << "        '" << command.name << ":" << zsh_escaped(command.description) << "'\n";
  }
  out << "      )\n"
         "      _describe command commands ;;\n"
         "    argument)\n"
         "      case $line[1] in\n";
  for (const CommandInfo& command : commands) out << fmt::format("        {0}) _torchmigrate_{0} ;;\n", command.name);
  out << "      esac ;;\n"
         "  esac\n"
         "}\n\n"
         "if [ \"$funcstack[1]\" = \"_torchmigrate\" ]; then\n"
         "  _torchmigrate \"$@\"\n"
         "else\n"
         "  compdef _torchmigrate torchmigrate\n"
         "fi\n";
}

void write_fish(const std::vector<CommandInfo>& commands, std::ostream& out) {
  std::vector<std::string> names;
  for (const CommandInfo& command : commands) names.push_back(command.name);
  out << "# fish completion for torchmigrate (torchmigrate completion fish)\n"
         "complete -c torchmigrate -f\n"
         "complete -c torchmigrate -n __fish_use_subcommand -l help -d 'Print help'\n"
         "complete -c torchmigrate -n __fish_use_subcommand -l version -d 'Print the version'\n";
  for (const CommandInfo& command : commands) {
    out << fmt::format("complete -c torchmigrate -n __fish_use_subcommand -a {} -d {}\n", command.name,
                       shell_quoted(command.description));
  }
  for (const CommandInfo& command : commands) {
    std::string condition = "'__fish_seen_subcommand_from " + command.name + "'";
    for (const OptionInfo& option : command.options) {
      std::string line = "complete -c torchmigrate -n " + condition;
      for (const std::string& name : option.names) {
        line += name.starts_with("--") ? " -l " + name.substr(2) : " -s " + name.substr(1);
      }
      switch (option.value.kind) {
        case ValueKind::Words: line += " -x -a " + shell_quoted(joined(option.value.words)); break;
        case ValueKind::Directory: line += " -x -a '(__fish_complete_directories)'"; break;
        case ValueKind::File: line += " -r -F"; break;
        case ValueKind::Free: line += " -x"; break;
        case ValueKind::None: break;
      }
      out << line << " -d " << shell_quoted(option.description) << '\n';
    }
    switch (command.positional.kind) {
      case ValueKind::Words:
        out << "complete -c torchmigrate -n " << condition << " -a " << shell_quoted(joined(command.positional.words)) << '\n';
        break;
      case ValueKind::File:
      case ValueKind::Directory: out << "complete -c torchmigrate -n " << condition << " -F\n"; break;
      case ValueKind::Free:
      case ValueKind::None: break;
    }
  }
}

}  // namespace

void write_completion(const CLI::App& app, const engine::Catalog& catalog, const std::string& shell,
                      std::ostream& out) {
  std::vector<CommandInfo> commands = commands_of(app, catalog);
  if (shell == "bash") write_bash(commands, out);
  if (shell == "zsh") write_zsh(commands, out);
  if (shell == "fish") write_fish(commands, out);
}

}  // namespace torchmigrate::cli
