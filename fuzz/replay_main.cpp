// SPDX-License-Identifier: MIT
// A main() for a fuzz target in builds without libFuzzer: runs the target's entry point once on
// every file named on the command line, or in a directory named there (recursively). The test
// suite replays the inputs that once crashed (tests/fuzz-regressions/<target>/) this way.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_target.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    fs::path argument(argv[i]);
    if (fs::is_directory(argument)) {
      for (const auto& entry : fs::recursive_directory_iterator(argument)) {
        if (entry.is_regular_file() && entry.path().filename().string().front() != '.') inputs.push_back(entry.path());
      }
    } else if (fs::exists(argument)) {
      inputs.push_back(argument);
    }
  }
  std::sort(inputs.begin(), inputs.end());
  for (const fs::path& input : inputs) {
    std::ifstream in(input, std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::cout << "replaying " << input.filename().string() << " (" << data.size() << " bytes)" << std::endl;
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  }
  std::cout << inputs.size() << " input(s) replayed without a crash\n";
  return 0;
}
