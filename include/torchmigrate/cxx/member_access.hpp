// SPDX-License-Identifier: MIT
// Member accesses (`base.member`, `base->member`) found by the token scan, with whether the
// file shows the base to be a value of a given struct type. No headers are needed.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "torchmigrate/cxx/source_scan.hpp"

namespace torchmigrate::cxx {

struct MemberAccess {
  size_t member = 0;       // token index of the member's name
  size_t base = 0;         // token index of the last token of the base expression
  bool of_struct = false;  // the base is known to be a `struct_name` value
};

// Every live access to `member` in code or macro bodies. The base is known to be a `struct_name`
// when it is `holder` (`m->dl_tensor.ctx`) or a variable the file declares as one
// (`const DLTensor* t`, `auto& t = m.dl_tensor;`), wherever in the file.
std::vector<MemberAccess> member_accesses(const SourceScan& scan, std::string_view member,
                                          std::string_view struct_name, std::string_view holder);

// Whether the access is followed by `.field` or `->field` for one of `fields`.
bool followed_by_field(const SourceScan& scan, size_t member, const std::vector<std::string>& fields);

}  // namespace torchmigrate::cxx
