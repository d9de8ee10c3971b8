// SPDX-License-Identifier: MIT
// `torchmigrate server`: the language server over stdin/stdout (logs go to stderr).
#include <iostream>

#include "torchmigrate/cli/commands.hpp"
#include "torchmigrate/lsp/server.hpp"

namespace torchmigrate::cli {

int run_server(const engine::Catalog& catalog) {
  // stdout carries only JSON-RPC frames; unsynchronised streams buffer and flush per message.
  std::ios::sync_with_stdio(false);
  return lsp::run_server(catalog, std::cin, std::cout);
}

}  // namespace torchmigrate::cli
