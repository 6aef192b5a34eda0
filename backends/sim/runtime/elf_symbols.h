// Names the function at an address of an ELF shared object from its symbol table (.symtab, else
// .dynsym), so crash reports name kernel functions even when they are not exported.
#ifndef PYASC_SIM_ELF_SYMBOLS_H_
#define PYASC_SIM_ELF_SYMBOLS_H_

#include <cstdint>
#include <map>
#include <string>

namespace pyasc_sim {

// The (mangled) name of the function of `path` containing virtual address `vaddr` (the offset
// from the object's load base), or "" when the file has no such symbol.
std::string elf_function_at(const std::string &path, uint64_t vaddr);

// The symbols a shared object exports (defined entries of .dynsym), read from the file without loading it: the
// host checks a kernel binary with it and never runs the binary's code (its static constructors included), which
// runs in the device process only.
class ElfExports {
public:
    // Reads `path`: false with *why set when it is no ELF shared object of this machine.
    bool read(const std::string &path, std::string *why);
    bool has(const std::string &name) const { return syms_.count(name) != 0; }
    // The first n bytes of the exported object `name` (zeros for .bss), false when it is not exported or the
    // file has fewer bytes.
    bool value(const std::string &name, void *dst, size_t n) const;

private:
    std::string path_;
    struct Sym {
        uint64_t file_off = 0;  // where its bytes are in the file
        uint64_t size = 0;      // its size; with no bytes in the file (.bss) file_off is ~0
    };
    std::map<std::string, Sym> syms_;
};

}  // namespace pyasc_sim

#endif  // PYASC_SIM_ELF_SYMBOLS_H_
