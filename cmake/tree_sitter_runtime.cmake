# SPDX-License-Identifier: MIT
# The tree-sitter runtime is linked statically when its archive is installed (Debian's
# libtree-sitter-dev ships libtree-sitter.a): every parser step is a call into the runtime, and
# a shared library makes each one go through the PLT. Measured on a 1,777-file corpus, parsing
# alone costs 7% less CPU (docs/benchmarks.md), and the binary needs no libtree-sitter0 at run time.
# -DTORCHMIGRATE_STATIC_TREE_SITTER=OFF keeps the shared library.
option(TORCHMIGRATE_STATIC_TREE_SITTER "Link the tree-sitter runtime statically when libtree-sitter.a exists" ON)
if(TORCHMIGRATE_STATIC_TREE_SITTER)
  find_library(TREE_SITTER_STATIC_LIBRARY NAMES libtree-sitter.a HINTS ${TREE_SITTER_LIBRARY_DIRS})
  if(TREE_SITTER_STATIC_LIBRARY)
    set_property(TARGET PkgConfig::TREE_SITTER PROPERTY INTERFACE_LINK_LIBRARIES "${TREE_SITTER_STATIC_LIBRARY}")
    message(STATUS "tree-sitter runtime: ${TREE_SITTER_STATIC_LIBRARY} (static)")
  endif()
endif()
