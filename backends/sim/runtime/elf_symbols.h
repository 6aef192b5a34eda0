// Names the function at an address of an ELF shared object from its symbol table (.symtab, else
// .dynsym), so crash reports name kernel functions even when they are not exported.
#ifndef PYASC_SIM_ELF_SYMBOLS_H_
#define PYASC_SIM_ELF_SYMBOLS_H_

#include <cstdint>
#include <string>

namespace pyasc_sim {

// The (mangled) name of the function of `path` containing virtual address `vaddr` (the offset
// from the object's load base), or "" when the file has no such symbol.
std::string elf_function_at(const std::string &path, uint64_t vaddr);

}  // namespace pyasc_sim

#endif  // PYASC_SIM_ELF_SYMBOLS_H_
