// SPDX-License-Identifier: MIT
// Where a torch config option (`torch._inductor.config`, `torch._dynamo.config`, ...) or a
// config environment variable is used, in every spelling, and the edits that remove such a use
// without leaving broken syntax behind (empty `with`, dangling commas, empty blocks).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/fix.hpp"
#include "torchmigrate/python/semantic_model.hpp"

namespace torchmigrate::checks {

class CallArguments;

enum class ConfigUsageKind {
  AttributeWrite,   // cfg.a.b = v
  AttributeRead,    // any other use of cfg.a.b
  PatchKeyword,     // cfg.patch(b=v)
  PatchPositional,  // cfg.patch("a.b", v)
  DictEntry,        // "a.b": v in a dict given to cfg.patch(...), cfg.load_config(...) or to compile options
  GetAttr,          // getattr(cfg.a, "b")
  SetAttr,          // setattr(cfg.a, "b", v)
  MockPatchObject,  // mock.patch.object(cfg.a, "b", v)
  MockPatchString,  // mock.patch("torch._inductor.config.a.b", v)
};

struct ConfigUsage {
  ConfigUsageKind kind = ConfigUsageKind::AttributeRead;
  std::string module;          // "torch._inductor.config"
  std::string key;             // "aot_inductor.embed_cubin", relative to `module`
  python::Node site;           // attribute, keyword_argument, pair or call
  python::Node key_node;       // the identifier or string that spells the key
  std::string key_prefix;      // what the object supplies before the spelled key ("aot_inductor.")
  python::Node value;          // the value set, if any
  python::Node owner_call;     // the patch / getattr / mock / compile call the use belongs to
  bool via_local_dict = false; // the dict was bound to a local name and passed by that name
  bool in_compile_options = false;  // torch.compile(options=...), inductor_configs=..., aot_compile
};

// A config environment variable set from Python.
struct EnvUsage {
  std::string name;
  python::Node site;      // assignment or call
  python::Node name_node; // the string naming the variable
  python::Node value;     // the value set, if any
};

class ConfigUsageFinder {
 public:
  ConfigUsageFinder(const python::SemanticModel& model, std::vector<std::string> modules);

  // Uses found at `node`: an `attribute` or a `call` node; other kinds give nothing.
  [[nodiscard]] std::vector<ConfigUsage> at(python::Node node) const;
  // Environment variables set at `node` (an `assignment` or a `call`).
  [[nodiscard]] std::vector<EnvUsage> env_at(python::Node node) const;
  // The module and key prefix an object expression stands for (`ic.aot_inductor` ->
  // {"torch._inductor.config", "aot_inductor."}).
  [[nodiscard]] std::optional<std::pair<std::string, std::string>> config_object(python::Node expression) const;
  // An expression that names `qualified` at `at` through the file's imports, if one exists;
  // `imported` receives the length of the imported prefix it starts from (`torch` -> 5).
  [[nodiscard]] std::optional<std::string> spelling_of(std::string_view qualified, python::Node at,
                                                       size_t* imported = nullptr) const;

 private:
  void from_attribute(python::Node attribute, std::vector<ConfigUsage>& out) const;
  void from_call(python::Node call, std::vector<ConfigUsage>& out) const;
  // The kinds of call from_call reads; each returns whether `call` was of its kind (then no
  // other kind is tried), whether or not it found a use.
  bool from_attribute_call(python::Node call, const CallArguments& arguments, std::vector<ConfigUsage>& out) const;
  bool from_mock_call(python::Node call, const std::string& callee, const CallArguments& arguments,
                      std::vector<ConfigUsage>& out) const;
  bool from_options_call(python::Node call, const std::string& callee, const CallArguments& arguments,
                         std::vector<ConfigUsage>& out) const;
  void from_config_method(python::Node call, const std::string& callee, const CallArguments& arguments,
                          std::vector<ConfigUsage>& out) const;
  void from_patch_call(python::Node call, const std::string& module, const CallArguments& arguments,
                       std::vector<ConfigUsage>& out) const;
  // `call(object, "name", ...)`: the option `name` of the config object `object`, if it is one.
  [[nodiscard]] std::optional<ConfigUsage> named_on_object(ConfigUsageKind kind, python::Node call, python::Node object,
                                                           python::Node name) const;
  // Who reads the dict: a config's patch / load_config, torch.compile's options (which accept
  // dashes for underscores), or the AOT entry points' options.
  enum class DictSource { Patch, CompileOptions, AotOptions };
  void dict_entries(python::Node dict, const std::string& module, python::Node owner, bool via_local,
                    DictSource source, std::vector<ConfigUsage>& out) const;
  // The entries of a dict argument: a dict literal, or a local name bound to one.
  void dict_argument(python::Node value, const std::string& module, python::Node owner, DictSource source,
                     std::vector<ConfigUsage>& out) const;
  [[nodiscard]] python::Node local_dict(python::Node identifier) const;
  [[nodiscard]] std::optional<std::string> module_of(std::string_view qualified, std::string* rest) const;

  const python::SemanticModel& model_;
  std::vector<std::string> modules_;
};

// Text of a plain string literal (no f-string, bytes, escapes or concatenation).
std::optional<std::string> plain_string(python::Node node);
// Replaces the content of a plain string literal, keeping its prefix and quotes.
Edit replace_string_content(python::Node string, std::string_view content);
// True when evaluating `node` has no side effects worth keeping (literals, names, attributes).
bool is_side_effect_free(python::Node node);

// The statement whose only expression is `expression` (an expression_statement), if any.
python::Node enclosing_statement(python::Node expression);
// Removes a whole `config.patch(...)` / `mock.patch(...)` use: its decorator line, its `with`
// item (the `with` is dropped and its body dedented when it was the only item), or its statement.
std::optional<Edit> remove_patch_use(python::Node call);
// Removes one `key: value` pair of a dict literal with its separating comma.
Edit remove_dict_pair(python::Node pair);

}  // namespace torchmigrate::checks
