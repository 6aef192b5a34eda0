// Maps an address in a kernel binary to its source file:line (crash reports name the faulting
// statement): kernels are compiled with line tables (-g1), read here with binutils' addr2line.
#ifndef PYASC_SIM_SOURCE_LINE_H_
#define PYASC_SIM_SOURCE_LINE_H_

#include <cstdint>
#include <string>

namespace pyasc_sim {

// "file:line" of virtual address `vaddr` (offset from the load base) of the ELF object `path`:
// the innermost inlined frame outside the kernel API headers (the kernel's own statement), or
// "" when the binary has no line table or addr2line is unavailable.  `is_return`: vaddr is a
// return address (a caller's frame), so the call instruction before it is looked up.
std::string source_line_at(const std::string &path, uint64_t vaddr, bool is_return);

// Picks the line from addr2line -i output (one "file:line[ (discriminator N)]" per inlined
// frame, innermost first); exposed for the unit test.
std::string pick_source_line(const std::string &addr2line_output);

}  // namespace pyasc_sim

#endif  // PYASC_SIM_SOURCE_LINE_H_
