#include "elf_symbols.h"

#include <elf.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace pyasc_sim {

namespace {

struct FileCloser {
    void operator()(FILE *f) const { std::fclose(f); }
};

bool read_at(FILE *f, uint64_t off, void *dst, size_t n) {
    return std::fseek(f, static_cast<long>(off), SEEK_SET) == 0 && std::fread(dst, 1, n, f) == n;
}

}  // namespace

std::string elf_function_at(const std::string &path, uint64_t vaddr) {
    std::unique_ptr<FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
    if (!f) return std::string();
    Elf64_Ehdr eh;
    if (!read_at(f.get(), 0, &eh, sizeof(eh)) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0) {
        return std::string();
    }
    std::vector<Elf64_Shdr> sh(eh.e_shnum);
    if (!read_at(f.get(), eh.e_shoff, sh.data(), sh.size() * sizeof(Elf64_Shdr))) return std::string();
    for (uint32_t want : {static_cast<uint32_t>(SHT_SYMTAB), static_cast<uint32_t>(SHT_DYNSYM)}) {
        for (const Elf64_Shdr &s : sh) {
            if (s.sh_type != want || s.sh_entsize != sizeof(Elf64_Sym) || s.sh_link >= sh.size()) continue;
            const size_t n = s.sh_size / sizeof(Elf64_Sym);
            if (n == 0 || n > (1u << 24)) continue;
            std::vector<Elf64_Sym> syms(n);
            if (!read_at(f.get(), s.sh_offset, syms.data(), n * sizeof(Elf64_Sym))) continue;
            for (const Elf64_Sym &y : syms) {
                if (ELF64_ST_TYPE(y.st_info) != STT_FUNC || y.st_value == 0) continue;
                if (vaddr < y.st_value || vaddr >= y.st_value + (y.st_size == 0 ? 1 : y.st_size)) continue;
                const Elf64_Shdr &strtab = sh[s.sh_link];
                if (y.st_name >= strtab.sh_size) continue;
                char name[512];
                const size_t len = std::min<uint64_t>(sizeof(name) - 1, strtab.sh_size - y.st_name);
                if (!read_at(f.get(), strtab.sh_offset + y.st_name, name, len)) continue;
                name[len] = '\0';
                return std::string(name);
            }
        }
    }
    return std::string();
}

}  // namespace pyasc_sim
